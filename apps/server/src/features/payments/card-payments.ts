import type { WidgetData } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { deposits } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { PaymentProvider } from './provider';
import { createSandboxProvider } from './sandbox/sandbox-provider';
import { createStripeProvider } from './stripe/stripe-provider';

const providers = new WeakMap<Config, PaymentProvider>();

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
type PurposeHandler = (tx: Db, deposit: PurposeDeposit) => Promise<void>;
const purposeHandlers = new Map<string, PurposeHandler>();

/**
 * A feature that sells something by card registers what a credited payment for it does: the
 * handler runs inside the webhook's crediting transaction, after the money reached the user's
 * balance, so the credit and the purchase commit together (or neither does, and the provider retries).
 */
export function registerDepositPurpose(kind: string, handler: PurposeHandler) {
  purposeHandlers.set(kind, handler);
}

export async function runDepositPurpose(tx: Db, deposit: PurposeDeposit) {
  const handler = purposeHandlers.get(deposit.purpose.kind);
  if (handler) await handler(tx, deposit);
}

/**
 * Starts a card payment of exactly `amountMinor` (base currency) through the provider's widget,
 * for a purpose, in the caller's transaction: a deposit row the webhook settles like any other.
 */
export async function startWidgetPayment(
  tx: Db,
  config: Config,
  input: { userId: number; email: string; amountMinor: number; purpose: DepositPurpose },
): Promise<{ order_id: number; widget_data: WidgetData }> {
  const provider = paymentProviderFor(config);
  const method = provider.methods().find((m) => m.type === 'widget');
  if (!method) throw new AppError('CONFLICT', 'Card payment is not available.');
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
    .returning();
  const start = await provider.startCheckout(
    { id: deposit!.id, currencyAmountMinor: input.amountMinor, currency: 'EUR', wholeOnly: false, email: input.email },
    method,
  );
  if (!start.widget) throw new AppError('CONFLICT', 'Card payment is not available.');
  await tx
    .update(deposits)
    .set({ providerRef: start.providerRef ?? null, checkoutNonce: start.checkoutNonce ?? null })
    .where(eq(deposits.id, deposit!.id));
  return { order_id: deposit!.id, widget_data: start.widget };
}
