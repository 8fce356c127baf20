import type { DehydratedState } from '@tanstack/react-query';

/** The element that carries what the server rendered with: the query answers and the page seed. */
export const SSR_STATE_ELEMENT_ID = 'atelier-ssr';

export type SsrState = { seed: number; queries: DehydratedState };

/** Serialised for a <script type="application/json">: nothing in it can close the element. */
export function serializeSsrState(state: SsrState): string {
  return JSON.stringify(state)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** What the server rendered this page with, or null when the page was not rendered on the server. */
export function readSsrState(): SsrState | null {
  const el = document.getElementById(SSR_STATE_ELEMENT_ID);
  if (!el?.textContent) return null;
  try {
    return JSON.parse(el.textContent) as SsrState;
  } catch {
    return null;
  } finally {
    el.remove();
  }
}
