import { minorToAmount, type Payout } from '@atelier/shared';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { jobs, offers, payouts } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { openSecret, sealSecret } from '../../lib/secret-box';
import { clearingAccountCode, systemAccountId, transfer } from '../ledger';
import { moveOffer } from '../offers';
import type { PayoutOrder, PayoutProvider } from './payout-provider';
import { canSettle, type PayoutActor } from './payout-states';

/** The platform's spending on bought works (a system account that may go below zero). */
export const OFFER_ACQUISITIONS = 'expense:offer-acquisitions';

export type PayoutRow = typeof payouts.$inferSelect;
/** The job that sends a payout through its provider and records the answer; one per payout, keyed by its id. */
export const PAYOUT_SETTLE = 'payout.settle';
export const payoutJobKey = (payoutId: number) => `payout:${payoutId}`;

/** The IBAN is kept encrypted (AES-256-GCM, a key derived from the session secret) and shown masked. */
export const encryptIban = (iban: string, secret: string) => sealSecret(iban, secret, 'iban');
export const decryptIban = (stored: string, secret: string) => openSecret(stored, secret, 'iban');
export const maskIban = (iban: string) => `${iban.slice(0, 4)} •••• ${iban.slice(-4)}`;

export function toPayout(row: PayoutRow, opts: { awaitsStaff: boolean }): Payout {
  return {
    id: row.id,
    offer_id: row.offerId ?? 0,
    method: row.method,
    amount: minorToAmount(row.amountMinor),
    currency: row.currency,
    status: row.status,
    destination: row.method === 'card' ? `${row.cardBrand ?? 'card'} •••• ${row.cardLast4 ?? ''}` : (row.ibanMasked ?? ''),
    failure_reason: row.failureReason,
    provider: row.provider,
    awaits_staff: row.status === 'processing' && opts.awaitsStaff,
    transfer_reference: row.transferReference,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
  };
}

/**
 * What ending a payout does depends on what it pays for. Each kind locks its own domain row first
 * (before the payout row, as the request did), then states its effects; the ledger comes last.
 * Creator withdrawals will add their kind here: paid journals nothing more, failed returns the money.
 */
type Settlement = {
  lock(tx: Db, payout: PayoutRow): Promise<void>;
  paid(tx: Db, payout: PayoutRow, by: { actor: PayoutActor; actorId: number | null }): Promise<void>;
  failed(tx: Db, payout: PayoutRow, reason: string, by: { actor: PayoutActor; actorId: number | null }): Promise<void>;
};

const SETTLEMENTS: Record<PayoutRow['kind'], Settlement> = {
  offer: {
    async lock(tx, payout) {
      await tx.select({ id: offers.id }).from(offers).where(eq(offers.id, payout.offerId!)).for('update');
    },
    async paid(tx, payout, by) {
      await moveOffer(tx, { offerId: payout.offerId!, to: 'paid', actor: by.actor, actorId: by.actorId });
      // Buying a creator's work is the platform's expense: its own account (which may go below zero),
      // so platform revenue and every user balance keep their rules. Once: the key is the payout.
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
    },
    async failed(tx, payout, reason, by) {
      await moveOffer(tx, { offerId: payout.offerId!, to: 'approved', actor: by.actor, actorId: by.actorId, note: reason });
    },
  },
};

/**
 * Ends a processing payout in one transaction: what it pays for is locked first, then the payout row.
 * Paid runs the kind's effects (an offer: paid, and the ledger journals the expense); failed returns
 * the offer to `approved` with the reason. A payout that is no longer processing is left alone (the
 * job may run twice), unless staff asked: then 409. Staff marking one paid give the transfer reference.
 */
export async function settlePayout(
  db: Db,
  opts: {
    payoutId: number;
    outcome: 'paid' | 'failed';
    reason?: string;
    actor: PayoutActor;
    actorId?: number;
    providerRef?: string;
    providerAccount?: string;
    transferReference?: string;
  },
): Promise<PayoutRow | null> {
  return db.transaction(async (tx) => {
    const [seen] = await tx.select().from(payouts).where(eq(payouts.id, opts.payoutId));
    if (!seen) {
      if (opts.actor === 'staff') throw notFound('This payout does not exist.');
      return null;
    }
    const settlement = SETTLEMENTS[seen.kind];
    await settlement.lock(tx, seen);
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, opts.payoutId)).for('update');
    if (!payout || !canSettle(payout.status, opts.outcome, opts.actor)) {
      if (opts.actor === 'staff') throw new AppError('CONFLICT', `This payout is already ${payout?.status ?? 'gone'}.`);
      return null;
    }
    const reason = opts.reason || 'The payout failed.';
    const [updated] = await tx
      .update(payouts)
      .set({
        status: opts.outcome,
        failureReason: opts.outcome === 'failed' ? reason : null,
        completedAt: new Date(),
        ...(opts.providerRef ? { providerRef: opts.providerRef } : {}),
        ...(opts.providerAccount ? { providerAccount: opts.providerAccount } : {}),
        ...(opts.transferReference ? { transferReference: opts.transferReference } : {}),
      })
      .where(eq(payouts.id, payout.id))
      .returning();
    const by = { actor: opts.actor, actorId: opts.actorId ?? null };
    if (opts.outcome === 'paid') await settlement.paid(tx, updated!, by);
    else await settlement.failed(tx, updated!, reason, by);
    return updated!;
  });
}

/**
 * The `payout.settle` job: after the commit, hands the payout to its provider with the payout's id as
 * the idempotency key, and records the answer. A payout staff pay (no token), or one already ended, is
 * left alone. A provider that cannot be reached throws, and the job is retried with the same key, so a
 * transfer that went through before a crash is not made twice.
 */
export async function sendPayout(db: Db, provider: PayoutProvider, payoutId: number, log: FastifyBaseLogger): Promise<void> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (row?.status !== 'processing' || !row.destinationToken) return;
  if (row.provider !== provider.name) {
    // PAYOUT_PROVIDER changed while this payout waited: it belongs to the provider that holds its token.
    throw new Error(`This payout was registered with ${row.provider}; PAYOUT_PROVIDER is now ${provider.name}.`);
  }
  const contact = (row.contact ?? {}) as PayoutOrder['contact'];
  const order: PayoutOrder = {
    payoutId: row.id,
    idempotencyKey: `payout-${row.id}`,
    amountMinor: row.amountMinor,
    currency: row.currency,
    method: row.method,
    token: row.destinationToken,
    account: row.providerAccount ?? (await lastProviderAccount(db, row.userId, row.provider)),
    holderName: row.holderName,
    contact,
    userId: row.userId,
  };
  const outcome = await provider.sendPayout(order);
  if (outcome.state === 'pending') {
    if (outcome.providerRef || outcome.account) {
      await db
        .update(payouts)
        .set({ providerRef: outcome.providerRef ?? row.providerRef, providerAccount: outcome.account ?? row.providerAccount })
        .where(eq(payouts.id, row.id));
    }
    throw new Error('The payout is still pending at the provider.');
  }
  await settlePayout(db, {
    payoutId,
    outcome: outcome.state,
    reason: outcome.state === 'failed' ? outcome.reason : undefined,
    actor: 'system',
    providerRef: outcome.providerRef,
    providerAccount: outcome.account,
  });
  log.info({ payoutId, outcome: outcome.state, provider: provider.name }, 'payout sent');
}

/** The creator's account at this provider from an earlier payout (Stripe Connect reuses it). */
async function lastProviderAccount(db: Db, userId: number, provider: string): Promise<string | null> {
  const [last] = await db
    .select({ account: payouts.providerAccount })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), eq(payouts.provider, provider), isNotNull(payouts.providerAccount)))
    .orderBy(desc(payouts.id))
    .limit(1);
  return last?.account ?? null;
}

/** Payout ids whose job still waits or runs: the provider has them, so staff may not end them by hand. */
export async function payoutsWithLiveJob(db: Db, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ key: jobs.singletonKey })
    .from(jobs)
    .where(
      and(
        eq(jobs.name, PAYOUT_SETTLE),
        inArray(
          jobs.singletonKey,
          ids.map((id) => payoutJobKey(id)),
        ),
        inArray(jobs.state, ['pending', 'running']),
      ),
    );
  return new Set(rows.map((r) => Number(r.key!.slice('payout:'.length))));
}

export async function listPayouts(db: Db, status?: PayoutRow['status']): Promise<Payout[]> {
  const rows = await db
    .select()
    .from(payouts)
    .where(status ? eq(payouts.status, status) : undefined)
    .orderBy(asc(payouts.id))
    .limit(500);
  const live = await payoutsWithLiveJob(
    db,
    rows.filter((r) => r.status === 'processing' && r.destinationToken).map((r) => r.id),
  );
  return rows.map((r) => toPayout(r, { awaitsStaff: !live.has(r.id) }));
}

/** Staff may end a payout only when no job is about to send it (a transfer in flight is the provider's). */
export async function assertAwaitsStaff(db: Db, payoutId: number, provider: string): Promise<void> {
  if ((await payoutsWithLiveJob(db, [payoutId])).has(payoutId)) {
    throw new AppError('CONFLICT', `This payout is being sent by ${provider}; it ends when the provider answers.`);
  }
}
