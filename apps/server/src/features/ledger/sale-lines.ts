import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { EarningsLineState } from '../../db/schema';

/**
 * Sold lines (migration 0036): an order item or a paid chat image, each with its split (seller_minor,
 * commission_minor) and where its earnings are (`earnings_state`). The view `sale_lines` lists both.
 * A line's state moves only with the journal transaction that moves its money, in the same transaction:
 *   pending  → released   the release job (earnings.ts), once the clearing period passed
 *   pending  → held       an open refund request on it (D); held → pending/released when it ends
 *   any      → refunded   the refund (refund.ts)
 * A pending line may pay part of its seller's debt (`settled_minor`): it then holds the rest in pending.
 */
export type SaleLineType = 'order_item' | 'chat_message';
export type SaleLineRef = { type: SaleLineType; id: number };
export type SaleLine = SaleLineRef & { sellerId: number; sellerMinor: number; settledMinor: number; heldMinor: number; state: EarningsLineState };

const keyOf = (ref: SaleLineRef) => `${ref.type}:${ref.id}`;
type Raw = {
  id: string | number;
  seller_id: string | number;
  seller_minor: string | number | null;
  settled_minor: string | number;
  held_minor: string | number;
  earnings_state: EarningsLineState;
};
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/**
 * Locks sold lines in the one lock order (features/ledger/ledger.ts): chats, then their messages, then
 * orders, then their items, each in id order; returns each line as it is under the lock.
 */
export async function lockSaleLines(tx: Db, refs: SaleLineRef[]): Promise<Map<string, SaleLine>> {
  const ids = (type: SaleLineType) => [...new Set(refs.filter((r) => r.type === type).map((r) => r.id))].sort((a, b) => a - b);
  const messages = ids('chat_message');
  const items = ids('order_item');
  const out = new Map<string, SaleLine>();
  const add = (type: SaleLineType, rows: Raw[]) => {
    for (const r of rows) {
      const line: SaleLine = {
        type,
        id: Number(r.id),
        sellerId: Number(r.seller_id),
        sellerMinor: Number(r.seller_minor ?? 0),
        settledMinor: Number(r.settled_minor),
        heldMinor: Number(r.held_minor),
        state: r.earnings_state,
      };
      out.set(keyOf(line), line);
    }
  };
  if (messages.length) {
    const list = sql`${sql.param(messages)}::bigint[]`;
    await tx.execute(sql`select id from chats where id in (select chat_id from chat_messages where id = any(${list})) order by id for update`);
    add(
      'chat_message',
      rowsOf<Raw>(
        await tx.execute(
          sql`select id, user_id as seller_id, seller_minor, settled_minor, held_minor, earnings_state from chat_messages where id = any(${list}) order by id for update`,
        ),
      ),
    );
  }
  if (items.length) {
    const list = sql`${sql.param(items)}::bigint[]`;
    await tx.execute(sql`select id from orders where id in (select order_id from order_items where id = any(${list})) order by id for update`);
    add(
      'order_item',
      rowsOf<Raw>(
        await tx.execute(
          sql`select id, seller_id, seller_minor, settled_minor, held_minor, earnings_state from order_items where id = any(${list}) order by id for update`,
        ),
      ),
    );
  }
  return out;
}

export const saleLineOf = (lines: Map<string, SaleLine>, ref: SaleLineRef) => lines.get(keyOf(ref));

/** Moves a locked line to `state` (and its settled part, when given). */
export async function setSaleLine(tx: Db, ref: SaleLineRef, change: { state?: EarningsLineState; settledMinor?: number; heldMinor?: number }): Promise<void> {
  const table = ref.type === 'order_item' ? sql`order_items` : sql`chat_messages`;
  const sets = [
    change.state !== undefined ? sql`earnings_state = ${change.state}` : null,
    change.settledMinor !== undefined ? sql`settled_minor = ${change.settledMinor}` : null,
    change.heldMinor !== undefined ? sql`held_minor = ${change.heldMinor}` : null,
  ].filter((s): s is NonNullable<typeof s> => s !== null);
  if (!sets.length) return;
  await tx.execute(sql`update ${table} set ${sql.join(sets, sql`, `)} where id = ${ref.id}`);
}

/** The SQL condition "this `sale_lines` row (alias l) has an open refund request". */
export const openRefundRequestOn = sql`exists (
  select 1 from refund_requests r where r.status in ('open', 'responded')
    and ((l.line_type = 'order_item' and r.order_id = l.order_id and r.product_id = l.product_id)
      or (l.line_type = 'chat_message' and r.chat_message_id = l.chat_message_id)))`;

/** Whether a line has an open refund request (read in the caller's transaction, after it locked the line). */
export async function hasOpenRefundRequest(tx: Db, ref: SaleLineRef): Promise<boolean> {
  const rows = rowsOf<{ open: boolean }>(
    await tx.execute(sql`select ${openRefundRequestOn} as open from sale_lines l where l.line_type = ${ref.type} and l.line_id = ${ref.id}`),
  );
  return rows[0]?.open === true;
}
