import type { WidgetData } from '@atelier/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { deposits } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { enforceRateLimit } from '../../lib/rate-limit';
import type { CheckoutDeposit, CheckoutStart, PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox/sandbox-provider';
import { createStripeProvider } from './stripe/stripe-provider';

const providers = new WeakMap<Config, PaymentProvider>();

/** At most this many of a user's payments (deposits, card payments for a chat image) wait in `processing` at once. */
export const PENDING_PAYMENTS_MAX = 5;
/** Starting a payment with the provider (Add Funds checkout, the card widget of a chat unlock): per user, in a window. */
export const PAYMENT_STARTS = { limit: 20, windowSeconds: 600 };
export const PAYMENT_MESSAGES = {
  tooManyPending: `You have ${PENDING_PAYMENTS_MAX} payments still waiting to be completed. Complete or cancel one of them (an unfinished payment expires after 30 minutes), then try again.`,
  tooManyStarts: 'Too many payments started.',
} as const;

/**
 * Refuses a new payment (409) while the user already has PENDING_PAYMENTS_MAX in `processing`. Runs in
 * the transaction that writes the deposit row, under a lock on the user's payments (a transaction
 * advisory lock, taken where the lock order of features/ledger puts the deposit), so parallel starts
 * cannot all see room for one more.
 */
export async function assertPaymentSlot(tx: Db, userId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('deposits:processing'), ${userId}::int)`);
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(deposits)
    .where(and(eq(deposits.userId, userId), eq(deposits.status, 'processing')));
  if (Number(row?.n ?? 0) >= PENDING_PAYMENTS_MAX) throw new AppError('CONFLICT', PAYMENT_MESSAGES.tooManyPending);
}

/** The payment provider the configuration names (PAYMENT_PROVIDER), one per configuration. */
export function paymentProviderFor(config: Config): PaymentProvider {
  let provider = providers.get(config);
  if (!provider) {
    provider = config.payments.provider === 'stripe' ? createStripeProvider(config) : createSandboxProvider(config);
    providers.set(config, provider);
  }
  return provider;
}

export type DepositPurpose = { kind: string } & Record<string, unknown>;
export type PurposeDeposit = { id: number; userId: number; amountMinor: number; purpose: DepositPurpose };

/**
 * What a purpose holds once its rows are locked: the ledger accounts its payment will touch (locked
 * with the deposit's own, all in id order, before any money moves), and the payment itself, run right
 * after the card's money reached the buyer's balance.
 */
export type PurposeLock = { accountIds: number[]; pay: () => Promise<void> };
type PurposeHandler = (tx: Db, deposit: PurposeDeposit) => Promise<PurposeLock | null>;
const purposeHandlers = new Map<string, PurposeHandler>();

/**
 * A feature that sells something by card registers what a credited payment for it does. The webhook's
 * crediting transaction calls the handler first, before it locks the deposit row (the lock order of
 * features/ledger: domain rows first, a chat before a deposit, accounts last): the handler locks its
 * own rows and answers what it will pay, or null when there is nothing left to pay (then the credit
 * stays on the balance). The credit and the purchase commit together, or neither does and the
 * provider retries.
 */
export function registerDepositPurpose(kind: string, handler: PurposeHandler) {
  purposeHandlers.set(kind, handler);
}

export async function lockDepositPurpose(tx: Db, deposit: PurposeDeposit): Promise<PurposeLock | null> {
  const handler = purposeHandlers.get(deposit.purpose.kind);
  return handler ? handler(tx, deposit) : null;
}

/**
 * Writes the intent of a card payment of exactly `amountMinor` (EUR cents) for a purpose, in the
 * caller's transaction: a deposit row in `processing` that the webhook settles like any other. The
 * provider is asked only after the commit (`startWidgetCheckout`), keyed by the deposit's id. A
 * payment for the same purpose still waiting is reused, so asking again starts no second charge.
 */
export async function createCardIntent(
  tx: Db,
  config: Config,
  input: { userId: number; amountMinor: number; purpose: DepositPurpose },
): Promise<{ depositId: number }> {
  const provider = paymentProviderFor(config);
  const method = provider.methods().find((m) => m.type === 'widget');
  if (!method) throw new AppError('CONFLICT', 'Card payment is not available.');
  const [waiting] = await tx
    .select({ id: deposits.id })
    .from(deposits)
    .where(
      and(
        eq(deposits.userId, input.userId),
        eq(deposits.status, 'processing'),
        eq(deposits.provider, provider.name),
        eq(deposits.amountMinor, input.amountMinor),
        sql`${deposits.purpose} = ${JSON.stringify(input.purpose)}::jsonb`,
      ),
    )
    .limit(1);
  if (waiting) return { depositId: waiting.id };
  await assertPaymentSlot(tx, input.userId);
  const [deposit] = await tx
    .insert(deposits)
    .values({
      userId: input.userId,
      amountMinor: input.amountMinor,
      currency: 'EUR',
      currencyAmountMinor: input.amountMinor,
      provider: provider.name,
      paymentMethod: method.id,
      status: 'processing',
      purpose: input.purpose,
    })
    .returning({ id: deposits.id });
  return { depositId: deposit!.id };
}

const NOT_STARTED = 'The card payment could not be started.';

/**
 * Asks the provider to start paying a deposit whose row is committed: never inside a database
 * transaction (a provider's round trip would hold the rows, and on PGlite the whole database). Keyed
 * by the deposit id (Stripe's idempotency key), so asking again for the same deposit is safe. What
 * the provider answers is stored on the deposit; a refusal fails the deposit and is thrown.
 */
export async function startCheckout(
  db: Db,
  provider: PaymentProvider,
  deposit: CheckoutDeposit,
  method: Parameters<PaymentProvider['startCheckout']>[1],
): Promise<CheckoutStart> {
  let start: CheckoutStart;
  try {
    start = await provider.startCheckout(deposit, method);
  } catch (err) {
    await db
      .update(deposits)
      .set({ status: 'failed', errorMessage: NOT_STARTED, checkoutNonce: null, updatedAt: new Date() })
      .where(and(eq(deposits.id, deposit.id), eq(deposits.status, 'processing')));
    throw err;
  }
  await db
    .update(deposits)
    .set({ providerRef: start.providerRef ?? null, checkoutNonce: start.checkoutNonce ?? null })
    .where(and(eq(deposits.id, deposit.id), eq(deposits.status, 'processing')));
  return start;
}

/**
 * The card widget for a committed card intent (`createCardIntent`), or null when that payment is
 * no longer waiting (it was paid or failed meanwhile: the caller reads what happened).
 */
export async function startWidgetCheckout(
  db: Db,
  config: Config,
  input: { depositId: number; email: string },
): Promise<{ order_id: number; widget_data: WidgetData } | null> {
  const provider = paymentProviderFor(config);
  const method = provider.methods().find((m) => m.type === 'widget');
  const [deposit] = await db.select().from(deposits).where(eq(deposits.id, input.depositId)).limit(1);
  if (!method || !deposit || deposit.status !== 'processing') return null;
  // Each start asks the provider: counted per user with the Add Funds checkouts (429 past the limit).
  await enforceRateLimit(db, `payment-start:${deposit.userId}`, PAYMENT_STARTS, PAYMENT_MESSAGES.tooManyStarts);
  let start: CheckoutStart;
  try {
    start = await startCheckout(
      db,
      provider,
      {
        id: deposit.id,
        currencyAmountMinor: Number(deposit.currencyAmountMinor),
        currency: deposit.currency,
        email: input.email,
        checkoutNonce: deposit.checkoutNonce,
      },
      method,
    );
  } catch {
    throw new AppError('CONFLICT', `${NOT_STARTED} Please try again.`);
  }
  if (!start.widget) throw new AppError('CONFLICT', 'Card payment is not available.');
  return { order_id: deposit.id, widget_data: start.widget };
}
