import { z } from 'zod';
import { decimalAmount } from './fields';

/** A JSON number or a plain decimal string; the server reads it as exact decimal text. */
const amount = decimalAmount('amount');
const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Please choose a currency.')
  .default('EUR');

/** POST /api/deposit/validate-amount and /api/deposit/validate. */
export const depositAmountInput = z.object({ amount, currency: currencyCode });
/** What a client sends (the amount as a number or a plain decimal string). */
export type DepositAmountInput = z.input<typeof depositAmountInput>;

/** POST /api/deposit/checkout. */
export const depositCheckoutInput = depositAmountInput.extend({
  payment_method: z.string({ error: 'Please choose a payment method.' }).trim().min(1, 'Please choose a payment method.').max(64),
});
export type DepositCheckoutInput = z.input<typeof depositCheckoutInput>;

export const paymentMethod = z.object({ id: z.string(), title: z.string(), type: z.enum(['redirect', 'widget']) });
export type PaymentMethod = z.infer<typeof paymentMethod>;

export const depositStatus = z.enum(['processing', 'success', 'failed', 'error']);
export type DepositStatus = z.infer<typeof depositStatus>;

/** SPEC §3 widget payment data. */
export const widgetData = z.object({
  checkout_url: z.string(),
  checkout: z.string(),
  public_key: z.string(),
  payment_type: z.literal('widget'),
});
export type WidgetData = z.infer<typeof widgetData>;

/** POST /api/deposit/checkout answer: a redirect method gives redirect_url, a widget method widget_data. */
export const depositCheckoutResult = z.object({
  order_id: z.number().int(),
  status: depositStatus,
  redirect_url: z.string().optional(),
  widget_data: widgetData.optional(),
});
export type DepositCheckoutResult = z.infer<typeof depositCheckoutResult>;

/** GET /api/deposit/status?order_id= (polled every 5 s). */
export const depositStatusQuery = z.object({ order_id: z.coerce.number({ error: 'Invalid order ID' }).int().positive('Invalid order ID') });
export const depositStatusResult = z.object({
  status: depositStatus,
  error_message: z.string().nullable(),
  redirect_url: z.string().nullable(),
});
export type DepositStatusResult = z.infer<typeof depositStatusResult>;

/** One line of GET /api/deposit/history; `amount` in the currency the user paid in. */
export const depositHistoryItem = z.object({
  id: z.number().int(),
  amount: z.number(),
  currency: z.string(),
  currencySymbol: z.string(),
  status: depositStatus,
  /** The method's id, as it was started with (SPEC §3). */
  payment_method: z.string(),
  /** What a person reads: the method's name ('Card (test payment)'), never its id. */
  payment_method_title: z.string(),
  created_at: z.number().int(),
});
export type DepositHistoryItem = z.infer<typeof depositHistoryItem>;
