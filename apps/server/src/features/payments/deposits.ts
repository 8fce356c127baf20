import {
  DEFAULT_CURRENCY,
  type DepositHistoryItem,
  type DepositStatusResult,
  decimalToMinor,
  FALLBACK_CURRENCY_SYMBOL,
  formatPrice,
  minorToAmount,
  type PaymentMethod,
  toBaseMinor,
  toCurrencyMinor,
} from '@atelier/shared';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { asDb, type Db } from '../../db/client';
import { currencies, deposits, paymentEvents, users } from '../../db/schema';
import { notFound, validationError } from '../../lib/app-error';
import { enqueue } from '../../lib/jobs';
import { mailHtml, sendMail } from '../../lib/mail';

export const DEPOSIT_RECEIPT_JOB = 'receipts.deposit';
export const EXPIRE_DEPOSITS_JOB = 'deposits.expire';

/** A deposit left pending this long expires as failed. */
import { DEPOSIT_EXPIRY_MINUTES } from '@atelier/shared/constants';
import {
  clearingAccountCode,
  existingAccountId,
  getCommerceSettings,
  lockAccounts,
  payDebtFromDeposit,
  receivableCode,
  systemAccountId,
  transfer,
  userAccountId,
} from '../ledger';
import { notify } from '../notifications';
import { assertPaymentSlot, lockDepositPurpose } from './card-payments';
import { type DepositEvent, nextDepositStatus } from './deposit-states';
import { applyChargebackEvent, isChargebackEvent } from './disputes';
import type { PaymentEvent } from './provider';

export { DEPOSIT_EXPIRY_MINUTES };

const EXPIRED_MESSAGE = `The payment was not completed within ${DEPOSIT_EXPIRY_MINUTES} minutes.`;

export type DepositCurrency = { code: string; symbol: string; rate: string; decimals: number };

export type CheckedAmount = {
  currency: DepositCurrency;
  /** What the user pays, in their currency's own minor units (its `decimals`: whole yen for JPY). */
  currencyAmountMinor: number;
  /** What is credited, in EUR cents. */
  amountMinor: number;
};

/** The deposit bounds (settings deposit_min / deposit_max), in EUR. */
export type DepositBounds = { deposit_min: number; deposit_max: number };

/**
 * SPEC §5 deposit amount, without the database: `amount` (a plain decimal, see `decimalAmount`) in
 * the currency's own decimals (a whole number where it has none), converted exactly to the EUR cents it
 * credits (`toBaseMinor`, the one conversion of packages/shared), whose value must lie within the
 * bounds. The bounds are shown in the currency: the lower rounded up, the upper down, so either
 * amount shown is accepted. 422 under `amount`.
 */
export function quoteDeposit(amount: string, currency: DepositCurrency, bounds: DepositBounds): CheckedAmount {
  let currencyAmountMinor: number;
  try {
    currencyAmountMinor = decimalToMinor(amount, currency.decimals);
  } catch (err) {
    throw validationError({ amount: (err as Error).message });
  }
  const amountMinor = toBaseMinor(currencyAmountMinor, currency);
  const min = Math.round(bounds.deposit_min * 100);
  const max = Math.round(bounds.deposit_max * 100);
  if (amountMinor < min || amountMinor > max || amountMinor <= 0) {
    const shown = (minor: number, rounding: 'up' | 'down') =>
      formatPrice(minorToAmount(toCurrencyMinor(minor, currency, rounding), currency.decimals), currency.symbol, currency.decimals);
    throw validationError({ amount: `The amount must be between ${shown(Math.max(min, 1), 'up')} and ${shown(max, 'down')}.` });
  }
  return { currency, currencyAmountMinor, amountMinor };
}

/** The currency a deposit is paid in; the base currency works even before the currencies table is filled. 422 under `currency`. */
export async function depositCurrency(db: Db, currencyCode: string): Promise<DepositCurrency> {
  const [row] = await db
    .select({ code: currencies.code, symbol: currencies.symbol, rate: currencies.rate, decimals: currencies.decimals })
    .from(currencies)
    .where(eq(currencies.code, currencyCode))
    .limit(1);
  const currency = row ?? (currencyCode === DEFAULT_CURRENCY ? { code: DEFAULT_CURRENCY, symbol: FALLBACK_CURRENCY_SYMBOL, rate: '1', decimals: 2 } : null);
  if (!currency || Number(currency.rate) <= 0) throw validationError({ currency: `The currency "${currencyCode.slice(0, 10)}" is not available.` });
  return currency;
}

/** SPEC §5 deposit amount, checked against the currency and today's bounds (see `quoteDeposit`). */
export async function checkDepositAmount(db: Db, amount: string, currencyCode: string): Promise<CheckedAmount> {
  const currency = await depositCurrency(db, currencyCode);
  return quoteDeposit(amount, currency, await getCommerceSettings(db));
}

/** Writes a deposit's intent, in `processing`; refused (409) while the user has PENDING_PAYMENTS_MAX waiting already. */
export async function createDeposit(db: Db, input: { userId: number; checked: CheckedAmount; provider: string; paymentMethod: string }) {
  await assertPaymentSlot(db, input.userId);
  const [row] = await db
    .insert(deposits)
    .values({
      userId: input.userId,
      amountMinor: input.checked.amountMinor,
      currency: input.checked.currency.code,
      currencyAmountMinor: input.checked.currencyAmountMinor,
      provider: input.provider,
      paymentMethod: input.paymentMethod,
      status: 'processing',
    })
    .returning();
  return row!;
}

export async function findUserDeposit(db: Db, userId: number, depositId: number) {
  const [row] = await db
    .select()
    .from(deposits)
    .where(and(eq(deposits.id, depositId), eq(deposits.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function depositStatusOf(db: Db, userId: number, depositId: number): Promise<DepositStatusResult> {
  const row = await findUserDeposit(db, userId, depositId);
  if (!row) throw notFound('Invalid order ID');
  return { status: row.status, error_message: row.errorMessage, redirect_url: null };
}

export async function depositHistory(db: Db, userId: number, methods: PaymentMethod[] = []): Promise<DepositHistoryItem[]> {
  // Issue 18: a method is shown by its name, never its id ('sandbox-card'); one from a provider no
  // longer configured keeps a plain 'Card'.
  const titleOf = (id: string) => methods.find((m) => m.id === id)?.title ?? 'Card';
  const rows = await db
    .select({ d: deposits, symbol: currencies.symbol, decimals: currencies.decimals })
    .from(deposits)
    .leftJoin(currencies, eq(currencies.code, deposits.currency))
    .where(eq(deposits.userId, userId))
    .orderBy(desc(deposits.id))
    .limit(500);
  return rows.map(({ d, symbol, decimals }) => ({
    id: d.id,
    amount: minorToAmount(Number(d.currencyAmountMinor), decimals ?? 2),
    currency: d.currency,
    currencySymbol: symbol ?? d.currency,
    status: d.status,
    // A card payment for something (a chat image) is named for what it paid, not as a top-up.
    payment_method: d.purpose?.kind === 'chat_unlock' ? 'Card payment for a chat image' : d.paymentMethod,
    payment_method_title: d.purpose?.kind === 'chat_unlock' ? 'Card payment for a chat image' : titleOf(d.paymentMethod),
    created_at: Math.floor(d.createdAt.getTime() / 1000),
  }));
}

/** What a deposit paid, as the user typed it: in its currency's own decimals, with the currency's code. */
async function paidLabel(db: Db, deposit: { currency: string; currencyAmountMinor: number }): Promise<string> {
  const [row] = await db.select({ decimals: currencies.decimals }).from(currencies).where(eq(currencies.code, deposit.currency)).limit(1);
  const decimals = row?.decimals ?? 2;
  return formatPrice(minorToAmount(Number(deposit.currencyAmountMinor), decimals), deposit.currency, decimals);
}

/**
 * Applies a verified webhook event, once: the event id is stored in the same transaction, so a
 * replayed or duplicated event changes nothing. A success credits the deposit to the user's balance
 * from the provider's clearing account (the transfer is keyed by the deposit, so it happens once).
 */
export async function applyPaymentEvent(app: FastifyInstance, provider: string, event: PaymentEvent): Promise<'applied' | 'duplicate' | 'ignored' | 'refused'> {
  let credited: number | null = null;
  let refused: { depositId: number; eventId: string } | null = null;
  const result = await app.db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    const fresh = await tx
      .insert(paymentEvents)
      .values({ provider, eventId: event.id, type: event.type.slice(0, 100) })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.eventId });
    if (!fresh.length) return 'duplicate' as const;
    // Chargebacks and refunds (issue 19) name a payment already credited, by its id or the provider's.
    if (isChargebackEvent(event)) return applyChargebackEvent(tx, provider, event);
    if (event.outcome === 'card_seen') return recordCard(tx, provider, event);
    if ((event.outcome !== 'succeeded' && event.outcome !== 'failed') || event.depositId === null) return 'ignored' as const;
    const ofDeposit = and(eq(deposits.id, event.depositId), eq(deposits.provider, provider));
    // Lock order (features/ledger): what the payment is for (a chat) before the deposit, accounts last.
    const [seen] = await tx
      .select({ status: deposits.status, userId: deposits.userId, amountMinor: deposits.amountMinor, purpose: deposits.purpose })
      .from(deposits)
      .where(ofDeposit);
    if (!seen || !nextDepositStatus(seen.status, event.outcome)) return 'ignored' as const;
    const purposeLock =
      seen.purpose && event.outcome === 'succeeded'
        ? await lockDepositPurpose(tx, { id: event.depositId, userId: seen.userId, amountMinor: Number(seen.amountMinor), purpose: seen.purpose })
        : null;
    const [deposit] = await tx.select().from(deposits).where(ofDeposit).for('update');
    if (!deposit) return 'ignored' as const;
    const next = nextDepositStatus(deposit.status, event.outcome);
    if (!next) return 'ignored' as const;
    const card = event.card
      ? { cardBrand: event.card.brand, cardLast4: event.card.last4, ...(event.card.country ? { cardCountry: event.card.country } : {}) }
      : {};
    // The provider must say it was paid what the deposit asked, in its currency (issue 30): otherwise
    // nothing is credited, and staff see the deposit flagged with what the provider reported.
    const mismatch = next === 'success' ? paidMismatch(deposit, event.paid) : null;
    if (mismatch) {
      await tx.update(deposits).set({ flaggedReason: mismatch, flaggedAt: new Date(), updatedAt: new Date() }).where(eq(deposits.id, deposit.id));
      refused = { depositId: deposit.id, eventId: event.id };
      return 'refused' as const;
    }
    if (next === 'success') {
      const clearing = await systemAccountId(tx, clearingAccountCode(provider));
      const buyerAccount = await userAccountId(tx, deposit.userId);
      const debt = await existingAccountId(tx, receivableCode(deposit.userId));
      // The credit, a debt paid from it, then what it pays for: every account they touch is locked first, in id order.
      await lockAccounts(tx, [clearing, buyerAccount, ...(debt === null ? [] : [debt]), ...(purposeLock?.accountIds ?? [])]);
      const { transactionId } = await transfer(tx, {
        lines: [
          { accountId: clearing, amountMinor: -Number(deposit.amountMinor) },
          { accountId: buyerAccount, amountMinor: Number(deposit.amountMinor) },
        ],
        kind: 'deposit',
        subject: { type: 'deposit', id: deposit.id },
        reason: 'deposit',
        idempotency: `deposit:${deposit.id}`,
      });
      await tx
        .update(deposits)
        .set({
          status: 'success',
          errorMessage: null,
          checkoutNonce: null,
          ledgerTransactionId: transactionId,
          updatedAt: new Date(),
          ...card,
          ...(event.paymentRef ? { providerPaymentRef: event.paymentRef.slice(0, 200) } : {}),
        })
        .where(eq(deposits.id, deposit.id));
      // A user who owes (a chargeback of money already spent) pays it from this deposit first (issue 30).
      if (debt !== null) await payDebtFromDeposit(tx, { userId: deposit.userId, depositId: deposit.id, amountMinor: Number(deposit.amountMinor) });
      // The receipt is a job written with the credit: it cannot be lost, nor sent for a rolled-back credit.
      await enqueue(tx, DEPOSIT_RECEIPT_JOB, { depositId: deposit.id });
      // A payment for something (a chat image) pays for it now, from the credit; Add Funds rings the bell.
      if (deposit.purpose) await purposeLock?.pay();
      else
        await notify(tx, {
          userId: deposit.userId,
          kind: 'deposit_succeeded',
          text: `Your deposit of ${await paidLabel(tx, deposit)} is credited.`,
          link: '/dashboard/deposits',
          data: { depositId: deposit.id },
        });
      credited = deposit.id;
    } else {
      await tx
        .update(deposits)
        .set({ status: next, errorMessage: event.errorMessage?.slice(0, 300) ?? 'Payment failed', checkoutNonce: null, updatedAt: new Date(), ...card })
        .where(eq(deposits.id, deposit.id));
    }
    return 'applied' as const;
  });
  if (credited !== null) app.log.info({ depositId: credited }, 'deposit credited');
  // Ids only: the amounts are on the flagged deposit, for staff.
  // (Set inside the transaction's callback, which the compiler does not follow.)
  const refusal = refused as { depositId: number; eventId: string } | null;
  if (refusal) app.log.warn({ ...refusal, provider }, 'payment event refused: its amount or currency does not match the deposit');
  // Counted once committed: a replayed event is a duplicate and counts nothing.
  if (result === 'applied') {
    if (event.outcome === 'card_seen') {
      // Not a movement of money: nothing to count.
    } else if (event.outcome === 'refunded') app.metrics.money('deposits', 'refunded');
    else if (event.outcome.startsWith('dispute_')) app.metrics.money('disputes', event.outcome.slice('dispute_'.length));
    else app.metrics.money('deposits', event.outcome);
  }
  return result;
}

/**
 * The card that paid a deposit, as the provider told it apart from the payment's own event (Stripe's
 * `charge.succeeded`): its brand, last four and issuing country, the card piece of VAT evidence (issue 33).
 * Found by the deposit id the payment carries, else by the provider's payment id; nothing else moves.
 */
async function recordCard(tx: Db, provider: string, event: PaymentEvent): Promise<'applied' | 'ignored'> {
  if (!event.card || (event.depositId === null && !event.paymentRef)) return 'ignored';
  const which = event.depositId !== null ? eq(deposits.id, event.depositId) : eq(deposits.providerPaymentRef, event.paymentRef!.slice(0, 200));
  const updated = await tx
    .update(deposits)
    .set({ cardBrand: event.card.brand, cardLast4: event.card.last4, ...(event.card.country ? { cardCountry: event.card.country } : {}) })
    .where(and(which, eq(deposits.provider, provider)))
    .returning({ id: deposits.id });
  return updated.length ? 'applied' : 'ignored';
}

/**
 * Why a success event does not pay this deposit, as staff read it, or null when it does: the amount in
 * the currency's minor units and the currency must both be the deposit's. An event that does not say
 * what was paid pays nothing.
 */
export function paidMismatch(deposit: { currency: string; currencyAmountMinor: number }, paid: PaymentEvent['paid']): string | null {
  const expected = `${Number(deposit.currencyAmountMinor)} ${deposit.currency.toUpperCase()}`;
  if (!paid) return `The provider did not say what was paid; the deposit expects ${expected} (minor units). Nothing was credited.`;
  const got = `${paid.amountMinor} ${paid.currency.toUpperCase()}`;
  if (got === expected) return null;
  return `The provider reported ${got} paid; the deposit expects ${expected} (minor units). Nothing was credited.`;
}

/**
 * Deposits pending longer than 30 minutes become failed. Run by the job queue every few minutes;
 * returns the ids it expired.
 */
export async function expireStaleDeposits(db: Db, now = new Date()): Promise<number[]> {
  const cutoff = new Date(now.getTime() - DEPOSIT_EXPIRY_MINUTES * 60_000);
  const event: DepositEvent = 'expired';
  const rows = await db
    .update(deposits)
    .set({ status: nextDepositStatus('processing', event)!, errorMessage: EXPIRED_MESSAGE, checkoutNonce: null, updatedAt: now })
    .where(and(eq(deposits.status, 'processing'), lt(deposits.createdAt, cutoff)))
    .returning({ id: deposits.id });
  return rows.map((r) => r.id);
}

/** The receipt for a credited deposit. Mail failures are logged, never undo the credit. */
export async function sendDepositReceipt(app: FastifyInstance, depositId: number): Promise<void> {
  try {
    const [row] = await app.db
      .select({ d: deposits, email: users.email, name: users.name, deletedAt: users.deletedAt, symbol: currencies.symbol, decimals: currencies.decimals })
      .from(deposits)
      .innerJoin(users, eq(users.id, deposits.userId))
      .leftJoin(currencies, eq(currencies.code, deposits.currency))
      .where(eq(deposits.id, depositId));
    if (!row || row.deletedAt) return;
    const paid = formatPrice(minorToAmount(Number(row.d.currencyAmountMinor), row.decimals ?? 2), row.symbol ?? row.d.currency, row.decimals ?? 2);
    const credited = formatPrice(minorToAmount(Number(row.d.amountMinor)), '€');
    const byCard = `${paid}${row.d.cardLast4 ? ` by card ending ${row.d.cardLast4}` : ''}`;
    // A card payment for something (a chat image) is a payment to the buyer, never a "deposit".
    const forChat = row.d.purpose?.kind === 'chat_unlock' ? Number(row.d.purpose.chatId) : null;
    const link = forChat ? `${app.config.publicUrl}/dashboard/chat?chat=${forChat}` : `${app.config.publicUrl}/dashboard/deposits`;
    const lines = row.d.purpose
      ? [`Hello ${row.name},`, `thank you for your card payment #${row.d.id}.`, `Paid: ${byCard}.`, `Your chat: ${link}`]
      : [
          `Hello ${row.name},`,
          `your deposit #${row.d.id} was successful.`,
          `Paid: ${byCard}.`,
          `Added to your balance: ${credited}.`,
          `Your deposits: ${link}`,
        ];
    await sendMail(app.db, {
      to: row.email,
      subject: row.d.purpose ? `Your Atelier card payment #${row.d.id}` : `Your Atelier deposit #${row.d.id}`,
      text: lines.join('\n\n'),
      html: mailHtml(lines, row.d.purpose ? { label: 'Open the chat', url: link } : { label: 'View deposits', url: link }),
    });
  } catch (err) {
    app.log.error({ err: { message: (err as Error).message }, depositId }, 'deposit receipt failed');
  }
}

/** Sum of credited deposits in EUR cents (reconciliation: it equals what users hold plus what they spent). */
export async function creditedDepositsTotal(db: Db): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${deposits.amountMinor}), 0)` })
    .from(deposits)
    .where(eq(deposits.status, 'success'));
  return Number(row?.total ?? 0);
}
