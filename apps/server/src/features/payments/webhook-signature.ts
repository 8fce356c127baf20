import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../lib/app-error';
import { WEBHOOK_TOLERANCE_SECONDS } from './provider';

/**
 * The sandbox's webhook signature, shaped like Stripe's: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.rawBody">`. Verified on the raw bytes, with a timestamp tolerance so a captured request cannot
 * be replayed later (and a replay inside the window is caught by the stored event id).
 */
export function signPayload(secret: string, rawBody: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export const invalidSignature = () => new AppError('BAD_REQUEST', 'Invalid webhook signature.');

export function verifySignature(secret: string, rawBody: Buffer, header: string | string[] | undefined, now = Math.floor(Date.now() / 1000)): void {
  if (typeof header !== 'string' || header.length > 1000) throw invalidSignature();
  const parts = new Map<string, string[]>();
  for (const piece of header.split(',')) {
    const [k, v] = piece.split('=', 2);
    if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now - t) > WEBHOOK_TOLERANCE_SECONDS) throw invalidSignature();
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex'));
  const ok = (parts.get('v1') ?? []).some((sig) => {
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw invalidSignature();
}
