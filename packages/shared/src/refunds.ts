import { z } from 'zod';
import { okEnvelope } from './envelope';
import { idParam, requiredText, text } from './fields';
import { balance } from './ledger';

/**
 * Buyer protection (issue 19): a buyer asks for a refund of an order item or of a paid chat unlock
 * within REFUND_WINDOW_DAYS; the creator answers once or accepts; staff resolve the rest. The life of
 * a request is apps/server/src/features/refunds/refund-states.ts.
 */

export const REFUND_WINDOW_DAYS = 14;
export const REFUND_MESSAGE_MAX = 2000;

export const REFUND_REASONS = ['not_as_described', 'broken_file', 'not_received', 'other'] as const;
export const refundReason = z.enum(REFUND_REASONS, { error: 'Please choose a reason: not_as_described, broken_file, not_received or other.' });
export type RefundReason = z.infer<typeof refundReason>;

export const REFUND_STATUSES = ['open', 'responded', 'refunded', 'rejected'] as const;
export const refundStatus = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof refundStatus>;

const message = (label: string) => requiredText(label, REFUND_MESSAGE_MAX);

/** POST /api/orders/{id}/refund-request: one item of the order (`product_id`), or a chat unlock (`unlock_message_id`); neither: the order's only item. */
export const refundRequestInput = z.object({
  product_id: idParam('product id').optional(),
  unlock_message_id: idParam('unlock message id').optional(),
  reason: refundReason,
  message: message('message'),
});
export type RefundRequestInput = z.infer<typeof refundRequestInput>;

/** POST /api/refund-requests/{id}/respond: the creator's one answer. */
export const refundRespondInput = z.object({ message: message('message') });
export type RefundRespondInput = z.infer<typeof refundRespondInput>;

/** POST /api/admin/refund-requests/{id}/resolve. */
export const refundResolveInput = z.object({
  decision: z.enum(['refund', 'reject'], { error: 'The decision must be refund or reject.' }),
  note: text('note').trim().max(REFUND_MESSAGE_MAX, `The note may have at most ${REFUND_MESSAGE_MAX} characters.`).default(''),
});
export type RefundResolveInput = z.infer<typeof refundResolveInput>;

export const refundRequestsQuery = z.object({ status: refundStatus.optional() });
export const adminRefundRequestsQuery = z.object({
  status: z.enum(['open', 'refunded', 'rejected'], { error: 'The status must be open, refunded or rejected.' }).optional(),
});

/** The answer of POST /api/orders/{id}/refund-request: `{status: "OK", refund_request: {id, status}}` (issue 19). */
export const refundRequestCreated = okEnvelope(z.object({ id: z.number().int(), status: refundStatus }));

/** One message of a request's conversation: the buyer's, the creator's answer, staff's note. */
export const refundMessage = z.object({ from: z.enum(['buyer', 'creator', 'staff']), text: z.string(), created_at: z.number().int() });

export const refundRequest = z.object({
  id: z.number().int(),
  status: refundStatus,
  reason: refundReason,
  /** Which side the caller is on (staff: 'staff'). */
  role: z.enum(['buyer', 'creator', 'staff']),
  order_id: z.number().int().nullable(),
  product_id: z.number().int().nullable(),
  unlock_message_id: z.number().int().nullable(),
  chat_id: z.number().int().nullable(),
  title: z.string(),
  amount: balance,
  buyer: z.object({ id: z.number().int(), nickname: z.string() }),
  creator: z.object({ id: z.number().int(), nickname: z.string() }),
  messages: z.array(refundMessage),
  created_at: z.number().int(),
  resolved_at: z.number().int().nullable(),
});
export type RefundRequest = z.infer<typeof refundRequest>;

/** The back office's view of a request: plus the file to look at and both parties' refund history. */
export const adminRefundRequest = refundRequest.extend({
  /** The bought file for staff to check (the product's page or the chat), or null. */
  file_url: z.string().nullable(),
  history: z.object({
    buyer: z.object({ requests: z.number().int(), refunded: z.number().int() }),
    creator: z.object({ requests: z.number().int(), refunded: z.number().int() }),
  }),
});
export type AdminRefundRequest = z.infer<typeof adminRefundRequest>;
