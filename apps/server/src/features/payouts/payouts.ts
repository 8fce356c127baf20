import { type ContactDetails, minorToAmount, type Payout } from '@atelier/shared';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { jobs, offers, payouts } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { enqueue } from '../../lib/jobs';
import { openSecret, sealSecret } from '../../lib/secret-box';
import { clearingAccountCode, payWithdrawal, returnWithdrawal, systemAccountId, transfer } from '../ledger';
import { notify } from '../notifications';
import { moveOffer } from '../offers';
import { cardBrand, type PayoutOrder, type PayoutProvider, type RegisteredDestination } from './payout-provider';
import { canSettle, type PayoutActor, payoutMove } from './payout-states';

/** The platform's spending on bought works (a system account that may go below zero). */
export const OFFER_ACQUISITIONS = 'expense:offer-acquisitions';

export type PayoutRow = typeof payouts.$inferSelect;
/** The job that sends a payout through its provider and records the answer; one per payout, keyed by its id. */
export const PAYOUT_SETTLE = 'payout.settle';
export const payoutJobKey = (payoutId: number) => `payout:${payoutId}`;
/** The job that asks the provider, by payout id, whether a payout its settle job gave up on was paid. */
export const PAYOUT_RECONCILE = 'payout.reconcile';
export const payoutReconcileKey = (payoutId: number) => `payout-reconcile:${payoutId}`;

/** The IBAN is kept encrypted (AES-256-GCM, a key derived from the session secret) and shown masked. */
export const encryptIban = (iban: string, secret: string) => sealSecret(iban, secret, 'iban');
export const decryptIban = (stored: string, secret: string) => openSecret(stored, secret, 'iban');
export const maskIban = (iban: string) => `${iban.slice(0, 4)} •••• ${iban.slice(-4)}`;

export function toPayout(row: PayoutRow, opts: { awaitsStaff: boolean }): Payout {
  return {
    id: row.id,
    kind: row.kind,
    offer_id: row.offerId ?? 0,
    method: row.method,
    amount: minorToAmount(row.amountMinor),
    currency: row.currency,
    status: row.status,
    destination: row.method === 'card' ? `${row.cardBrand ?? 'card'} •••• ${row.cardLast4 ?? ''}` : (row.ibanMasked ?? ''),
    failure_reason: row.failureReason,
    provider: row.provider,
    awaits_staff: (row.status === 'processing' && opts.awaitsStaff) || row.status === 'needs_review',
    transfer_reference: row.transferReference,
    provider_state: row.providerState ?? null,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
  };
}

/**
 * What ending a payout does depends on what it pays for. Each kind locks its own domain row first
 * (before the payout row, as the request did), then states its effects; the ledger comes last.
 * A withdrawal: paid sends the held money out through the provider's clearing, failed returns it to available.
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
        kind: 'offer_payout',
        subject: { type: 'payout', id: payout.id },
        reason: `payout ${payout.id} for offer ${payout.offerId}`,
        idempotency: `payout:${payout.id}`,
      });
    },
    async failed(tx, payout, reason, by) {
      await moveOffer(tx, { offerId: payout.offerId!, to: 'approved', actor: by.actor, actorId: by.actorId, note: reason });
    },
  },
  // A creator's withdrawal of earnings (features/earnings): its money waits in withdrawals:in-flight
  // since the request. No domain row but the payout itself.
  withdrawal: {
    async lock() {},
    async paid(tx, payout) {
      await payWithdrawal(tx, payout);
      await notify(tx, {
        userId: payout.userId,
        kind: 'withdrawal_status',
        text: `Your withdrawal of €${minorToAmount(payout.amountMinor).toFixed(2)} is paid.`,
        link: '/dashboard/earnings',
      });
    },
    async failed(tx, payout, reason) {
      await returnWithdrawal(tx, payout);
      await notify(tx, {
        userId: payout.userId,
        kind: 'withdrawal_status',
        text: `Your withdrawal of €${minorToAmount(payout.amountMinor).toFixed(2)} failed and is back in your available earnings: ${reason}`,
        link: '/dashboard/earnings',
      });
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
    const refused = payoutMove(payout.status, opts.outcome, opts.actor)?.guard?.({ providerState: payout.providerState ?? null });
    if (refused) {
      if (opts.actor === 'staff') throw new AppError('CONFLICT', refused);
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
export async function sendPayout(db: Db, provider: PayoutProvider, payoutId: number, log: FastifyBaseLogger): Promise<PayoutRow | null> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (row?.status !== 'processing' || !row.destinationToken) return null;
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
  const settled = await settlePayout(db, {
    payoutId,
    outcome: outcome.state,
    reason: outcome.state === 'failed' ? outcome.reason : undefined,
    actor: 'system',
    providerRef: outcome.providerRef,
    providerAccount: outcome.account,
  });
  log.info({ payoutId, outcome: outcome.state, provider: provider.name }, 'payout sent');
  return settled;
}

/**
 * The `payout.settle` job gave up: the provider may have paid the payout (a timeout after it executed,
 * a pending answer that never ended). The payout waits in needs_review with the provider's state
 * unknown, and `payout.reconcile` asks the provider by payout id. Safe to repeat.
 */
export async function markPayoutNeedsReview(db: Db, payoutId: number, log: FastifyBaseLogger): Promise<void> {
  await db.transaction(async (tx) => {
    const [seen] = await tx.select().from(payouts).where(eq(payouts.id, payoutId));
    if (!seen) return;
    await SETTLEMENTS[seen.kind].lock(tx, seen);
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
    if (!payout || !canSettle(payout.status, 'needs_review', 'system')) return;
    await tx.update(payouts).set({ status: 'needs_review', providerState: 'unknown' }).where(eq(payouts.id, payoutId));
    await enqueue(tx, PAYOUT_RECONCILE, { payoutId }, { singletonKey: payoutReconcileKey(payoutId) });
  });
  log.warn({ payoutId }, 'payout needs review: the provider may have paid it');
}

/**
 * The `payout.reconcile` job: asks the provider whether it paid this payout. Paid: the payout is paid
 * (its effects run, once). Not paid: the answer is kept, and staff may now mark it failed. Unknown:
 * the job throws and asks again later.
 */
export async function reconcilePayout(db: Db, provider: PayoutProvider, payoutId: number, log: FastifyBaseLogger): Promise<void> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (row?.status !== 'needs_review') return;
  if (row.provider !== provider.name) throw new Error(`This payout was sent by ${row.provider}; PAYOUT_PROVIDER is now ${provider.name}.`);
  const answer = await provider.lookup(payoutId);
  log.info({ payoutId, provider: provider.name, answer: answer.state }, 'payout looked up at the provider');
  if (answer.state === 'paid') {
    await settlePayout(db, { payoutId, outcome: 'paid', actor: 'system', providerRef: answer.providerRef });
    return;
  }
  await db
    .update(payouts)
    .set({ providerState: answer.state, providerCheckedAt: new Date() })
    .where(and(eq(payouts.id, payoutId), eq(payouts.status, 'needs_review')));
  if (answer.state === 'unknown') throw new Error('The provider could not say whether it paid this payout.');
}

/** Staff ask the provider again (the reconcile job's retries ran out, or they want a fresh answer). */
export async function askProviderAgain(db: Db, payoutId: number): Promise<PayoutRow> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  if (!row) throw notFound('This payout does not exist.');
  if (row.status !== 'needs_review') throw new AppError('CONFLICT', `Only a payout that needs review is asked again; this one is ${row.status}.`);
  await enqueue(db, PAYOUT_RECONCILE, { payoutId }, { singletonKey: payoutReconcileKey(payoutId) });
  return row;
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

/** What a payout's destination is, in the shape both an offer's payout and a withdrawal send it. */
type PayoutDetailsInput =
  | ({ card_number: string; expire_month: number; expire_year: number; card_holder_name: string } & ContactDetails)
  | ({ account_number: string; recipient_full_name: string } & ContactDetails);

const contactOf = (input: ContactDetails) => ({
  first_name: input.first_name,
  last_name: input.last_name,
  email: input.email,
  phone: input.phone,
  address: input.address,
  city: input.city,
  post_code: input.post_code,
  country: input.country,
  currency: input.currency,
});

export const NO_CARD_PAYOUTS = 'Card payouts are not available: please choose a bank transfer.';

export type PreparedPayout = {
  method: 'card' | 'sepa';
  paidBy: 'provider' | 'staff';
  destinationToken: string | null;
  details: Partial<typeof payouts.$inferInsert>;
  contact: ReturnType<typeof contactOf>;
};

/**
 * Before any transaction: the provider turns the card (or account) into what may be stored (a token,
 * brand and last four; an IBAN is kept encrypted and masked). The card number goes no further.
 * 422 when the provider cannot pay by this method.
 */
export async function preparePayoutDestination(
  sessionSecret: string,
  provider: PayoutProvider,
  user: { id: number; email: string },
  method: 'card' | 'sepa',
  input: PayoutDetailsInput,
): Promise<PreparedPayout> {
  const paidBy = provider.handles(method);
  if (!paidBy) throw new AppError('VALIDATION', NO_CARD_PAYOUTS, { paymentType: [NO_CARD_PAYOUTS] });
  let details: Partial<typeof payouts.$inferInsert>;
  let destination: RegisteredDestination;
  if (method === 'card' && 'card_number' in input) {
    destination = await provider.registerDestination(
      { method: 'card', card: { number: input.card_number, expMonth: input.expire_month, expYear: input.expire_year, holder: input.card_holder_name } },
      { userId: user.id, email: user.email },
    );
    details = {
      cardBrand: destination.brand ?? cardBrand(input.card_number),
      cardLast4: destination.last4 ?? input.card_number.slice(-4),
      holderName: input.card_holder_name,
    };
  } else if (method === 'sepa' && 'account_number' in input) {
    destination = await provider.registerDestination(
      { method: 'sepa', iban: input.account_number, name: input.recipient_full_name },
      { userId: user.id, email: user.email },
    );
    details = {
      ibanMasked: maskIban(input.account_number),
      ibanEncrypted: encryptIban(input.account_number, sessionSecret),
      holderName: input.recipient_full_name,
    };
  } else {
    throw new Error('The payout details do not match the method.');
  }
  if (paidBy === 'provider' && !destination.token) throw new Error(`The ${provider.name} payout provider gave no token for a ${method} payout.`);
  return { method, paidBy, destinationToken: paidBy === 'provider' ? destination.token : null, details, contact: contactOf(input) };
}

/**
 * Writes a processing payout in the caller's transaction (after what it pays for is locked) and, when
 * the provider sends it, the `payout.settle` job keyed by its id, to run after the commit.
 */
export async function insertPayout(
  tx: Db,
  provider: PayoutProvider,
  prepared: PreparedPayout,
  row: { kind: PayoutRow['kind']; offerId?: number; userId: number; amountMinor: number },
): Promise<PayoutRow> {
  const [payout] = await tx
    .insert(payouts)
    .values({
      kind: row.kind,
      offerId: row.offerId ?? null,
      userId: row.userId,
      method: prepared.method,
      provider: provider.name,
      amountMinor: row.amountMinor,
      holderName: prepared.details.holderName!,
      contact: prepared.contact,
      destinationToken: prepared.destinationToken,
      ...prepared.details,
    })
    .returning();
  if (prepared.paidBy === 'provider') {
    const runAt = new Date(Date.now() + provider.sendDelayMs);
    await enqueue(tx, PAYOUT_SETTLE, { payoutId: payout!.id }, { runAt, singletonKey: payoutJobKey(payout!.id) });
  }
  return payout!;
}
