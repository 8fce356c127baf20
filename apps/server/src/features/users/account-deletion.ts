import { minorToAmount } from '@atelier/shared';
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { disputes, ledgerAccounts, payouts, products, refundRequests } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { PAYOUT_IN_FLIGHT } from '../payouts';

/**
 * Deleting an account is refused while money remains on it or is owed (issue 30 finding 6): the
 * balance, earnings pending, available or held, a receivable (a debt from refunds), a withdrawal or
 * payout on its way, an open refund request (as buyer or as creator) and an open dispute. Each case has
 * its own sentence saying what to do first; all that apply are given at once.
 */
export type DeletionBlocker = { field: string; message: string };

const euro = (minor: number) => `€${minorToAmount(Math.abs(minor)).toFixed(2)}`;

/** Refund requests still to be decided (refund-states.ts: open, then responded by the creator). */
const UNDECIDED_REFUNDS = ['open', 'responded'] as const;

export const deletionMessages = {
  balance: (minor: number, currency: string, support: string) =>
    minor > 0
      ? `Your account still holds ${euro(minor)} (your ${currency} balance). Spend it in the shop on works, packs or chat deals, or ${support} to have it paid out to you; then delete your account.`
      : `Your account owes ${euro(minor)}. Add funds to settle it, then delete your account.`,
  pending: (minor: number) =>
    `${euro(minor)} of your earnings are still in the clearing period. Once they are available, withdraw them from the Earnings tab; then delete your account.`,
  available: (minor: number) => `You have ${euro(minor)} of available earnings. Withdraw them from the Earnings tab, then delete your account.`,
  held: (minor: number) =>
    `${euro(minor)} of your earnings are on hold for a refund request. Once the request is decided, withdraw what is yours; then delete your account.`,
  receivable: (minor: number) =>
    minor < 0
      ? `You owe ${euro(minor)} from refunds of works you had already been paid for. Your next earnings or a deposit settle it; then delete your account.`
      : `${euro(minor)} is still owed to you. Please write to support, then delete your account.`,
  withdrawal: (minor: number) => `Your withdrawal of ${euro(minor)} is on its way. Once it is paid or has failed, delete your account.`,
  offerPayout: (minor: number) => `The payout of ${euro(minor)} for your sold work is on its way. Once it is paid or has failed, delete your account.`,
  refundAsBuyer: (title: string) => `Your refund request for "${title}" is still open. Once it is decided, delete your account.`,
  refundAsCreator: (title: string) => `A buyer's refund request for "${title}" is waiting for a decision. Once it is decided, delete your account.`,
  dispute: (minor: number) => `A card payment of ${euro(minor)} of yours is disputed with your bank. Once the dispute is closed, delete your account.`,
  /** An earnings account of a kind this list does not know yet: the money is still there. */
  other: (minor: number) => `${euro(minor)} is still on your account's earnings. Please write to support, then delete your account.`,
} as const;

/**
 * Why this account may not be deleted now, in the caller's transaction, with the user's row locked
 * first: the domain rows are read, then the user's ledger accounts are locked in id order (last, as
 * every money movement does), so nothing moves money onto them before the deletion commits.
 */
export async function deletionBlockers(
  tx: Db,
  userId: number,
  settings: { internal_currency_name: string; support_email: string },
): Promise<DeletionBlocker[]> {
  const blockers: DeletionBlocker[] = [];

  const inFlight = await tx
    .select({ kind: payouts.kind, amountMinor: payouts.amountMinor })
    .from(payouts)
    .where(and(eq(payouts.userId, userId), inArray(payouts.status, [...PAYOUT_IN_FLIGHT])))
    .orderBy(asc(payouts.id));
  for (const p of inFlight) {
    blockers.push({
      field: 'payout',
      message: p.kind === 'withdrawal' ? deletionMessages.withdrawal(p.amountMinor) : deletionMessages.offerPayout(p.amountMinor),
    });
  }

  const refunds = await tx
    .select({ buyerId: refundRequests.buyerId, title: sql<string | null>`${products.title}` })
    .from(refundRequests)
    .leftJoin(products, eq(products.id, refundRequests.productId))
    .where(and(or(eq(refundRequests.buyerId, userId), eq(refundRequests.creatorId, userId)), inArray(refundRequests.status, [...UNDECIDED_REFUNDS])))
    .orderBy(asc(refundRequests.id));
  for (const r of refunds) {
    const title = (r.title ?? 'a chat image').slice(0, 80);
    blockers.push({
      field: 'refund_request',
      message: Number(r.buyerId) === userId ? deletionMessages.refundAsBuyer(title) : deletionMessages.refundAsCreator(title),
    });
  }

  const open = await tx
    .select({ amountMinor: disputes.amountMinor })
    .from(disputes)
    .where(and(eq(disputes.userId, userId), eq(disputes.status, 'open')))
    .orderBy(asc(disputes.id));
  for (const d of open) blockers.push({ field: 'dispute', message: deletionMessages.dispute(d.amountMinor) });

  // The user's own ledger accounts, locked last and in id order: the balance and every earnings account.
  const accounts = await tx
    .select({ kind: ledgerAccounts.kind, balanceMinor: ledgerAccounts.balanceMinor })
    .from(ledgerAccounts)
    .where(or(eq(ledgerAccounts.userId, userId), eq(ledgerAccounts.ownerId, userId)))
    .orderBy(asc(ledgerAccounts.id))
    .for('update');
  const support = settings.support_email ? `write to ${settings.support_email}` : 'write to us through the contact page';
  const money: DeletionBlocker[] = [];
  for (const a of accounts) {
    const minor = Number(a.balanceMinor);
    if (minor === 0) continue;
    // The account's kind is the ledger's enum (ledger.ts accountShapeOf), matched whole.
    const kind = a.kind;
    if (kind === 'user') money.push({ field: 'balance', message: deletionMessages.balance(minor, settings.internal_currency_name, support) });
    else if (kind === 'earnings_pending') money.push({ field: 'earnings_pending', message: deletionMessages.pending(minor) });
    else if (kind === 'earnings_available') money.push({ field: 'earnings_available', message: deletionMessages.available(minor) });
    else if (kind === 'receivable') money.push({ field: 'receivable', message: deletionMessages.receivable(minor) });
    else if (kind === 'earnings_held') money.push({ field: 'earnings_held', message: deletionMessages.held(minor) });
    else money.push({ field: 'earnings', message: deletionMessages.other(minor) });
  }
  const order = ['balance', 'earnings_available', 'earnings_pending', 'earnings_held', 'receivable', 'earnings'];
  money.sort((x, y) => order.indexOf(x.field) - order.indexOf(y.field));
  return [...money, ...blockers];
}

/** The refusal: 422, every sentence in the message (the web shows it), each under its own field. */
export function deletionRefused(blockers: DeletionBlocker[]): AppError {
  const fields: Record<string, string[]> = {};
  for (const b of blockers) fields[b.field] = [...(fields[b.field] ?? []), b.message];
  return new AppError('VALIDATION', blockers.map((b) => b.message).join(' '), fields);
}
