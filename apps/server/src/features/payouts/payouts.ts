import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { minorToAmount, type Payout } from '@atelier/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payouts } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { clearingAccountCode, systemAccountId, transfer } from '../ledger';

/** The platform's spending on bought works (a system account that may go below zero). */
export const OFFER_ACQUISITIONS = 'expense:offer-acquisitions';

import { moveOffer } from '../offers';

export type PayoutRow = typeof payouts.$inferSelect;
export const PAYOUT_SETTLE = 'payout.settle';

/** The IBAN is kept encrypted (AES-256-GCM, a key derived from the session secret) and shown masked. */
function ibanKey(secret: string) {
  return createHash('sha256').update(`${secret}:iban`).digest();
}
export function encryptIban(iban: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', ibanKey(secret), iv);
  const body = Buffer.concat([cipher.update(iban, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}
export function decryptIban(stored: string, secret: string): string {
  const [iv, tag, body] = stored.split('.').map((p) => Buffer.from(p, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', ibanKey(secret), iv!);
  decipher.setAuthTag(tag!);
  return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
}
export const maskIban = (iban: string) => `${iban.slice(0, 4)} •••• ${iban.slice(-4)}`;

export function toPayout(row: PayoutRow): Payout {
  return {
    id: row.id,
    offer_id: row.offerId,
    method: row.method,
    amount: minorToAmount(row.amountMinor),
    currency: row.currency,
    status: row.status,
    destination: row.method === 'card' ? `${row.cardBrand ?? 'card'} •••• ${row.cardLast4 ?? ''}` : (row.ibanMasked ?? ''),
    failure_reason: row.failureReason,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
  };
}

/**
 * Ends a processing payout, in one transaction with the payout row locked: paid moves the offer to
 * `paid` and journals platform revenue → the payout provider's clearing account (once: the transfer's
 * idempotency key is the payout); failed returns the offer to `approved` with the reason. A payout
 * that is no longer processing is left alone (the job may run twice), unless staff asked: then 409.
 */
export async function settlePayout(
  db: Db,
  opts: { payoutId: number; outcome: 'paid' | 'failed'; reason?: string; actor: 'system' | 'staff'; actorId?: number },
): Promise<PayoutRow | null> {
  return db.transaction(async (tx) => {
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, opts.payoutId)).for('update');
    if (!payout) {
      if (opts.actor === 'staff') throw notFound('This payout does not exist.');
      return null;
    }
    if (payout.status !== 'processing') {
      if (opts.actor === 'staff') throw new AppError('CONFLICT', `This payout is already ${payout.status}.`);
      return null;
    }
    const reason = opts.reason || 'The payout failed.';
    const [updated] = await tx
      .update(payouts)
      .set({ status: opts.outcome, failureReason: opts.outcome === 'failed' ? reason : null, completedAt: new Date() })
      .where(eq(payouts.id, payout.id))
      .returning();
    if (opts.outcome === 'paid') {
      // Buying a creator's work is the platform's expense: its own account (which may go below zero),
      // so platform revenue and every user balance keep their rules.
      const acquisitions = await systemAccountId(tx, OFFER_ACQUISITIONS);
      const clearing = await systemAccountId(tx, clearingAccountCode(`payout-${payout.provider}`));
      await transfer(tx, {
        lines: [
          { accountId: acquisitions, amountMinor: -payout.amountMinor },
          { accountId: clearing, amountMinor: payout.amountMinor },
        ],
        reason: `payout ${payout.id} for offer ${payout.offerId}`,
        idempotency: `payout:${payout.id}`,
      });
      await moveOffer(tx, { offerId: payout.offerId, to: 'paid', actor: opts.actor, actorId: opts.actorId ?? null });
    } else {
      await moveOffer(tx, { offerId: payout.offerId, to: 'approved', actor: opts.actor, actorId: opts.actorId ?? null, note: reason });
    }
    return updated!;
  });
}

export async function listPayouts(db: Db, status?: PayoutRow['status']): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(status ? eq(payouts.status, status) : undefined)
    .orderBy(asc(payouts.id))
    .limit(500);
}
