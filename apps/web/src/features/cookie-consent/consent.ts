import { CONSENT_COOKIE_NAME } from '@atelier/shared/constants';
import { readCookie, writeCookie } from '../../lib/cookies';

/** SPEC §3 cookie consent value. */
export type Consent = 'essential' | 'all' | 'custom';
const VALUES: readonly Consent[] = ['essential', 'all', 'custom'];

export function readConsent(): Consent | null {
  const value = readCookie(CONSENT_COOKIE_NAME);
  return VALUES.includes(value as Consent) ? (value as Consent) : null;
}

/** SPEC §9: the consent cookie lives 1 year, 1 month and 1 day. */
export function consentExpiry(from = new Date()): Date {
  const d = new Date(from);
  d.setFullYear(d.getFullYear() + 1);
  d.setMonth(d.getMonth() + 1);
  d.setDate(d.getDate() + 1);
  return d;
}

export function saveConsent(value: Consent) {
  writeCookie(CONSENT_COOKIE_NAME, value, { expires: consentExpiry() });
}

const INJECTED = 'data-atelier-analytics';

/**
 * Puts the analytics markup from settings into <head>, once. Only called after "accept all":
 * injecting it before consent would break EU law (a deliberate departure from the source product).
 * createContextualFragment makes the <script> elements in the markup run.
 */
export function injectAnalyticsTag(markup: string): boolean {
  if (!markup.trim() || document.head.querySelector(`[${INJECTED}]`)) return false;
  const fragment = document.createRange().createContextualFragment(markup);
  for (const node of Array.from(fragment.children)) node.setAttribute(INJECTED, '');
  document.head.appendChild(fragment);
  return true;
}
