import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentMethod } from '@atelier/shared';
import { z } from 'zod';
import type { Config } from '../../../config';
import type { CheckoutDeposit, CheckoutStart, PaymentEvent, PaymentProvider } from '../provider';
import { invalidSignature, signPayload, verifySignature } from '../webhook-signature';

export const SANDBOX_SIGNATURE_HEADER = 'atelier-signature';
export const SANDBOX_PAY_PATH = '/api/payments/sandbox/pay';

/**
 * The sandbox's webhook body: what a hosted payment page reports back, and, as Stripe's events do,
 * a dispute opened or closed on a payment (`dispute_id`, and `dispute_status` when it closes) and a refund.
 */
export const sandboxEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.enum(['payment.succeeded', 'payment.failed', 'dispute.created', 'dispute.closed', 'charge.refunded']),
  data: z.object({
    deposit_id: z.number().int().positive(),
    error_message: z.string().max(300).optional(),
    card: z
      .object({
        brand: z.string().max(20),
        last4: z.string().regex(/^\d{4}$/),
        country: z
          .string()
          .regex(/^[A-Z]{2}$/)
          .optional(),
      })
      .optional(),
    dispute_id: z.string().min(1).max(100).optional(),
    dispute_status: z.enum(['won', 'lost']).optional(),
    dispute_reason: z.string().max(100).optional(),
    /** A payment's amount in the currency's minor units and its ISO code (the deposit's), as Stripe states them. */
    amount_minor: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .optional(),
    /** What the dispute claims, in the payment currency's minor units (as Stripe's `dispute.amount`); unset: the whole payment. */
    dispute_amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  }),
});
export type SandboxEvent = z.infer<typeof sandboxEvent>;

const methods: PaymentMethod[] = [
  { id: 'sandbox-card', title: 'Card (test payment)', type: 'redirect' },
  { id: 'sandbox-widget', title: 'Card widget (test payment)', type: 'widget' },
];

/**
 * A form token names a deposit and its current single-use nonce, signed so it cannot be forged:
 * `<deposit id>.<nonce>.<signature>`. The nonce changes on every step and is cleared when the payment
 * ends, so a token works once.
 */
export function formTokenKey(config: Config) {
  return createHmac('sha256', config.payments.sandboxWebhookSecret).update('sandbox-form-token').digest();
}

export function signFormToken(config: Config, depositId: number, nonce: string): string {
  const sig = createHmac('sha256', formTokenKey(config)).update(`${depositId}.${nonce}`).digest('base64url');
  return `${depositId}.${nonce}.${sig}`;
}

export function readFormToken(config: Config, token: string): { depositId: number; nonce: string } | null {
  const m = /^(\d{1,15})\.([\w-]{8,64})\.([\w-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(createHmac('sha256', formTokenKey(config)).update(`${m[1]}.${m[2]}`).digest('base64url'));
  const given = Buffer.from(m[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { depositId: Number(m[1]), nonce: m[2]! };
}

export const newNonce = () => randomBytes(18).toString('base64url');

/** Signs an event exactly as the webhook route expects it (the sandbox's "provider side"). */
export function signSandboxEvent(config: Config, event: SandboxEvent, timestamp?: number) {
  const raw = JSON.stringify(event);
  return { raw, signature: signPayload(config.payments.sandboxWebhookSecret, raw, timestamp) };
}

export function createSandboxProvider(config: Config): PaymentProvider {
  return {
    name: 'sandbox',
    methods: () => methods,
    async startCheckout(deposit: CheckoutDeposit, method: PaymentMethod): Promise<CheckoutStart> {
      // 'c': the card step (sandbox.routes.ts reads the step from the nonce's first letter). Asked again
      // for the same deposit (an Idempotency-Key's replay), the card step's form stays the same.
      const nonce = deposit.checkoutNonce?.startsWith('c') ? deposit.checkoutNonce : `c${newNonce()}`;
      const token = signFormToken(config, deposit.id, nonce);
      const url = `${config.linkBase}${SANDBOX_PAY_PATH}/${token}`;
      if (method.type === 'widget') {
        return {
          checkoutNonce: nonce,
          widget: { checkout_url: `${config.linkBase}/api/payments/sandbox/widget.js`, checkout: token, public_key: 'pk_sandbox', payment_type: 'widget' },
        };
      }
      return { checkoutNonce: nonce, redirectUrl: url };
    },
    async parseWebhook(rawBody: Buffer, headers: IncomingHttpHeaders): Promise<PaymentEvent> {
      verifySignature(config.payments.sandboxWebhookSecret, rawBody, headers[SANDBOX_SIGNATURE_HEADER]);
      let parsed: SandboxEvent;
      try {
        parsed = sandboxEvent.parse(JSON.parse(rawBody.toString('utf8')));
      } catch {
        throw invalidSignature();
      }
      const base = { id: parsed.id, type: parsed.type, depositId: parsed.data.deposit_id };
      const dispute = parsed.data.dispute_id
        ? { id: parsed.data.dispute_id, reason: parsed.data.dispute_reason, amountMinor: parsed.data.dispute_amount }
        : undefined;
      switch (parsed.type) {
        case 'dispute.created':
          return dispute ? { ...base, outcome: 'dispute_opened', dispute } : { ...base, outcome: 'ignored' };
        case 'dispute.closed':
          return dispute && parsed.data.dispute_status
            ? { ...base, outcome: parsed.data.dispute_status === 'won' ? 'dispute_won' : 'dispute_lost', dispute }
            : { ...base, outcome: 'ignored' };
        case 'charge.refunded':
          return { ...base, outcome: 'refunded' };
        default:
          return {
            ...base,
            outcome: parsed.type === 'payment.succeeded' ? 'succeeded' : 'failed',
            errorMessage: parsed.data.error_message,
            card: parsed.data.card,
            ...(parsed.data.amount_minor !== undefined && parsed.data.currency
              ? { paid: { amountMinor: parsed.data.amount_minor, currency: parsed.data.currency.toUpperCase() } }
              : {}),
          };
      }
    },
  };
}
