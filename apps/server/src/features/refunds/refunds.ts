import {
  type AdminRefundRequest,
  formatPrice,
  minorToAmount,
  REFUND_WINDOW_DAYS,
  type RefundRequest,
  type RefundRequestInput,
  type RefundStatus,
} from '@atelier/shared';
import { and, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { asDb, type Db, rowsOf } from '../../db/client';
import { chatMessages, chats, orderItems, orders, products, refundRequests, userProducts, users } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/app-error';
import type { DisplayCurrency } from '../../lib/display-currency';
import { mailHtml, sendMail } from '../../lib/mail';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordAudit } from '../audit';
import { amountAnswer, holdForRefundRequest, postRefund, releaseRefundHold, type SaleLineRef, saleRevenueAccountOf } from '../ledger';
import { notify, wantsNotice } from '../notifications';
import { issueCreditNote } from '../tax';
import { findRefundTransition, illegalRefundMoveMessage, type RefundActor, type RefundEffect } from './refund-states';

/**
 * Buyer protection: the rules of who may ask for a refund, answer it and decide it. The money is
 * moved by the ledger (ledger/refund.ts); the moves follow refund-states.ts.
 *
 * LOCK ORDER of a refund (see ledger.ts): the refund request row, then the chat and its message or
 * the order, then the ledger accounts in id order (postRefund).
 */

export const REFUND_MESSAGES = {
  /** Issue 34: the licence bought first stays while an upgrade of it stands. */
  upgradeFirst: (orderId: number) => `This licence was upgraded afterwards: ask for a refund of the upgrade (order #${orderId}) first.`,
  notFound: 'This refund request was not found.',
  orderNotFound: 'This order was not found in your orders.',
  unlockNotFound: 'This unlocked image was not found in your chats.',
  both: 'Please name either a product or an unlocked image, not both.',
  chooseItem: 'This order has several items: please choose the one to refund.',
  notInOrder: 'This product is not in this order.',
  tooLate: `Refunds can be requested within ${REFUND_WINDOW_DAYS} days of the purchase; this one is older.`,
  notPaid: 'This order was not paid, so there is nothing to refund.',
  nothingPaid: 'Nothing was paid for this item, so there is nothing to refund.',
  alreadyOpen: 'A refund request for this item is already open.',
  alreadyRefunded: 'This item has already been refunded.',
  onlyCreator: 'Only the creator who sold this item may answer or accept this request.',
  ownSale: 'You cannot ask for a refund of your own work.',
} as const;

const WINDOW_MS = REFUND_WINDOW_DAYS * 86_400_000;
const eur = (minor: number) => formatPrice(minorToAmount(minor), '€');

type RequestRow = typeof refundRequests.$inferSelect;

/** What the request is about: an order item or a chat unlock, with its seller, price and purchase time. */
async function findSubject(db: Db, buyerId: number, pathId: number, input: RefundRequestInput) {
  if (input.product_id !== undefined && input.unlock_message_id !== undefined) throw validationError({ unlock_message_id: REFUND_MESSAGES.both });
  if (input.unlock_message_id !== undefined) {
    // For an unlock, the path names the chat (the deal the image was bought in).
    const [row] = await db
      .select({ message: chatMessages, chat: chats })
      .from(chatMessages)
      .innerJoin(chats, eq(chats.id, chatMessages.chatId))
      .where(
        and(
          eq(chatMessages.id, input.unlock_message_id),
          eq(chats.id, pathId),
          eq(chatMessages.kind, 'locked_image'),
          or(eq(chats.senderId, buyerId), eq(chats.recipientId, buyerId)),
        ),
      )
      .limit(1);
    if (!row?.message.unlockedAt || row.message.userId === buyerId) throw notFound(REFUND_MESSAGES.unlockNotFound);
    if (row.message.refundedAt) throw new AppError('CONFLICT', REFUND_MESSAGES.alreadyRefunded);
    return {
      orderId: null,
      productId: null,
      chatMessageId: row.message.id,
      creatorId: row.message.userId,
      // What the buyer paid (the price, or its net under reverse charge; migration 0053).
      amountMinor: Number(row.message.paidMinor ?? row.message.priceMinor ?? 0),
      boughtAt: row.message.unlockedAt,
    };
  }
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, pathId), eq(orders.buyerId, buyerId)))
    .limit(1);
  if (!order) throw notFound(REFUND_MESSAGES.orderNotFound);
  if (order.status === 'refunded') throw new AppError('CONFLICT', REFUND_MESSAGES.alreadyRefunded);
  if (order.status !== 'success') throw validationError({ product_id: REFUND_MESSAGES.notPaid });
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  let productId = input.product_id;
  if (productId === undefined) {
    const distinct = [...new Set(items.map((i) => i.productId))];
    if (distinct.length !== 1) throw validationError({ product_id: REFUND_MESSAGES.chooseItem });
    productId = distinct[0]!;
  }
  const item = items.find((i) => i.productId === productId);
  if (!item) throw validationError({ product_id: REFUND_MESSAGES.notInOrder });
  if (item.refundedAt) throw new AppError('CONFLICT', REFUND_MESSAGES.alreadyRefunded);
  // Issue 34: a licence with a standing upgrade is refunded from the top: the upgrade first.
  if (!item.upgradedFrom && !item.packId) {
    const [upgrade] = await db
      .select({ orderId: orderItems.orderId })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(
        and(
          eq(orders.buyerId, buyerId),
          eq(orderItems.productId, productId),
          isNotNull(orderItems.upgradedFrom),
          isNull(orderItems.refundedAt),
          gt(orderItems.id, item.id),
        ),
      )
      .limit(1);
    if (upgrade) throw validationError({ product_id: REFUND_MESSAGES.upgradeFirst(upgrade.orderId) });
  }
  return { orderId: order.id, productId, chatMessageId: null, creatorId: item.sellerId, amountMinor: Number(item.priceMinor), boughtAt: order.createdAt };
}

/** The sold line a request is about (an order item or an unlocked chat image). */
async function lineOf(tx: Db, row: { orderId: number | null; productId: number | null; chatMessageId: number | null }): Promise<SaleLineRef> {
  if (row.chatMessageId !== null) return { type: 'chat_message', id: row.chatMessageId };
  const [item] = await tx
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, row.orderId!), eq(orderItems.productId, row.productId!)))
    .limit(1);
  return { type: 'order_item', id: item!.id };
}

/** POST /api/orders/{id}/refund-request: a buyer's request, `open`; the creator is told. */
export async function createRefundRequest(db: Db, publicUrl: string, buyerId: number, pathId: number, input: RefundRequestInput, now = new Date()) {
  const subject = await findSubject(db, buyerId, pathId, input);
  const field = subject.chatMessageId !== null ? 'unlock_message_id' : 'product_id';
  if (now.getTime() - subject.boughtAt.getTime() > WINDOW_MS) throw validationError({ [field]: REFUND_MESSAGES.tooLate });
  if (subject.amountMinor <= 0) throw validationError({ [field]: REFUND_MESSAGES.nothingPaid });
  if (subject.creatorId === buyerId) throw validationError({ [field]: REFUND_MESSAGES.ownSale });
  const move = findRefundTransition(null, 'open', 'buyer')!;
  try {
    return await db.transaction(async (txRaw) => {
      const tx = asDb(txRaw);
      const [row] = await tx
        .insert(refundRequests)
        .values({
          buyerId,
          creatorId: subject.creatorId,
          orderId: subject.orderId,
          productId: subject.productId,
          chatMessageId: subject.chatMessageId,
          amountMinor: subject.amountMinor,
          reason: input.reason,
          message: input.message,
        })
        .returning();
      if (move.effects.includes('earnings_hold')) await holdForRefundRequest(tx, { line: await lineOf(tx, row!), requestId: row!.id });
      await runEffects(tx, publicUrl, row!, move.effects, 'buyer');
      return { id: row!.id, status: row!.status };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', REFUND_MESSAGES.alreadyOpen);
    throw err;
  }
}

/** The request, locked (FOR UPDATE), for a move; 404 for anyone who is neither party (staff see all). */
async function lockRequest(tx: Db, id: number, who: { userId: number; actor: RefundActor }): Promise<RequestRow> {
  const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for('update');
  if (!row) throw notFound(REFUND_MESSAGES.notFound);
  if (who.actor !== 'staff') {
    if (row.buyerId !== who.userId && row.creatorId !== who.userId) throw notFound(REFUND_MESSAGES.notFound);
    if (who.actor === 'creator' && row.creatorId !== who.userId) throw new AppError('FORBIDDEN', REFUND_MESSAGES.onlyCreator);
  }
  return row;
}

function checkMove(row: RequestRow, to: RefundStatus, actor: RefundActor) {
  const move = findRefundTransition(row.status, to, actor);
  if (!move) throw new AppError('CONFLICT', illegalRefundMoveMessage(row.status, to));
  return move;
}

/**
 * The `ledger_refund` and `revoke_access` effects, in the caller's transaction after the request row
 * was locked: the chat and message or the order are locked next, then postRefund locks the accounts.
 */
async function refundSubject(tx: Db, row: RequestRow): Promise<number | null> {
  const idempotency = `refund:${row.id}`;
  if (row.chatMessageId !== null) {
    const [message] = await tx.select().from(chatMessages).where(eq(chatMessages.id, row.chatMessageId)).limit(1);
    await tx.select({ id: chats.id }).from(chats).where(eq(chats.id, message!.chatId)).for('update');
    const [locked] = await tx.select().from(chatMessages).where(eq(chatMessages.id, row.chatMessageId)).for('update');
    if (locked!.refundedAt) throw new AppError('CONFLICT', REFUND_MESSAGES.alreadyRefunded);
    const sale = rowsOf<{ id: string | number }>(
      await tx.execute(sql`select id from ledger_transactions where kind = 'sale' and subject_type = 'chat_message' and subject_id = ${locked!.id} limit 1`),
    )[0];
    // The split the sale stored on the message (migration 0036): given back exactly.
    const creatorMinor = Number(locked!.sellerMinor ?? 0);
    const revenueAccountId = sale ? await saleRevenueAccountOf(tx, Number(sale.id)) : null;
    const done = sale
      ? await postRefund(tx, {
          buyerId: row.buyerId,
          sellerId: row.creatorId,
          amountMinor: row.amountMinor,
          creatorMinor,
          revenueAccountId,
          line: { type: 'chat_message', id: locked!.id },
          requestId: row.id,
          reason: `refund of chat image ${locked!.id}`,
          idempotency,
          // The VAT the unlock's sale stored goes back from its country's account (issue 33).
          vat: locked!.taxCountry && locked!.vatMinor > 0 ? { country: locked!.taxCountry, amountMinor: Number(locked!.vatMinor) } : undefined,
        })
      : { transactionId: null };
    await tx.update(chatMessages).set({ refundedAt: new Date() }).where(eq(chatMessages.id, locked!.id));
    return done.transactionId;
  }
  const [order] = await tx.select().from(orders).where(eq(orders.id, row.orderId!)).for('update');
  const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, order!.id));
  const item = items.find((i) => i.productId === row.productId);
  if (!item || item.refundedAt) throw new AppError('CONFLICT', REFUND_MESSAGES.alreadyRefunded);
  let transactionId: number | null = null;
  // The credit note that cancels the invoice (issue 33): its number is taken in this transaction, after
  // the order's lock and before the accounts' (a domain row), so a refund that rolls back gives it back.
  await issueCreditNote(tx, order!.id);
  if (order!.ledgerTransactionId !== null) {
    const done = await postRefund(tx, {
      buyerId: row.buyerId,
      sellerId: item.sellerId,
      amountMinor: Number(item.priceMinor),
      // The split the sale stored on the line (migration 0036): given back exactly.
      creatorMinor: Number(item.sellerMinor),
      revenueAccountId: await saleRevenueAccountOf(tx, order!.ledgerTransactionId),
      line: { type: 'order_item', id: item.id },
      requestId: row.id,
      reason: `refund of order ${order!.id} item ${item.productId}`,
      idempotency,
      // The VAT the sale stored on the line goes back from its country's account (issue 33).
      vat: order!.taxCountry && item.vatMinor > 0 ? { country: order!.taxCountry, amountMinor: Number(item.vatMinor) } : undefined,
    });
    transactionId = done.transactionId;
  }
  const now = new Date();
  await tx
    .update(orderItems)
    .set({ refundedAt: now })
    .where(and(eq(orderItems.orderId, order!.id), eq(orderItems.productId, item.productId)));
  if (item.upgradedFrom) {
    // A licence upgrade (issue 34): the buyer keeps the work at the licence the upgrade replaced.
    await tx
      .update(userProducts)
      .set({ licenceTier: item.upgradedFrom })
      .where(and(eq(userProducts.userId, row.buyerId), eq(userProducts.productId, item.productId), eq(userProducts.licenceTier, item.licenceTier)));
  } else {
    // The buyer no longer owns it: no review, no 'You own this', and they may buy it again.
    await tx
      .delete(userProducts)
      .where(and(eq(userProducts.userId, row.buyerId), eq(userProducts.productId, item.productId), eq(userProducts.orderId, order!.id)));
  }
  const left = items.filter((i) => i.productId !== item.productId && !i.refundedAt);
  if (!left.length) await tx.update(orders).set({ status: 'refunded' }).where(eq(orders.id, order!.id));
  return transactionId;
}

const STATUS_TEXT: Record<RefundStatus, string> = {
  open: 'asked for a refund',
  responded: 'The creator answered the refund request',
  refunded: 'was refunded',
  rejected: 'was rejected',
};

/** The notify effects: a bell notification (with its live event) and an e-mail to each party told. */
async function runEffects(tx: Db, publicUrl: string, row: RequestRow, effects: readonly RefundEffect[], actor: RefundActor) {
  const told: ('buyer' | 'creator')[] = effects.includes('notify_both')
    ? ['buyer', 'creator']
    : effects.includes('notify_other_party')
      ? [actor === 'buyer' ? 'creator' : 'buyer']
      : [];
  if (!told.length) return;
  const title = await subjectTitle(tx, row);
  const people = await tx
    .select({ id: users.id, name: users.name, email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(inArray(users.id, [row.buyerId, row.creatorId]));
  for (const side of told) {
    const person = people.find((p) => p.id === (side === 'buyer' ? row.buyerId : row.creatorId));
    const text =
      row.status === 'open'
        ? `A buyer asked for a refund of "${title}" (${eur(row.amountMinor)}).`
        : row.status === 'responded'
          ? `The creator answered your refund request for "${title}".`
          : `The refund request for "${title}" ${STATUS_TEXT[row.status]}.`;
    const link = side === 'buyer' ? '/dashboard/orders' : '/dashboard/refunds';
    const userId = side === 'buyer' ? row.buyerId : row.creatorId;
    // A new request is its own kind (the creator may silence one and keep the other); each has the params the bell words it with.
    const kind = row.status === 'open' ? 'refund_requested' : 'refund_status';
    const params = { title: title.slice(0, 200), amount_minor: Number(row.amountMinor), status: row.status };
    await notify(tx, { userId, kind, text, link, data: { refund_request_id: row.id, params } });
    if (person && !person.deletedAt && (await wantsNotice(tx, userId, kind, 'email'))) {
      const lines = [`Hello ${person.name},`, text];
      if (row.status === 'refunded' && side === 'buyer') lines.push(`${eur(row.amountMinor)} is back in your Atelier balance.`);
      if (row.staffNote) lines.push(`Our note: ${row.staffNote}`);
      await sendMail(tx, {
        to: person.email,
        subject: `Refund request #${row.id}`,
        text: lines.join('\n\n'),
        html: mailHtml(lines, { label: 'Open Atelier', url: `${publicUrl}${link}` }),
      });
    }
  }
}

async function subjectTitle(db: Db, row: RequestRow): Promise<string> {
  if (row.productId !== null) {
    const [p] = await db.select({ title: products.title }).from(products).where(eq(products.id, row.productId)).limit(1);
    return p?.title ?? `Product ${row.productId}`;
  }
  return `Chat image ${row.chatMessageId}`;
}

/** The creator's one answer: open → responded; the buyer is told. */
export async function respondToRefund(db: Db, publicUrl: string, userId: number, id: number, message: string) {
  return db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    const row = await lockRequest(tx, id, { userId, actor: 'creator' });
    const move = checkMove(row, 'responded', 'creator');
    const [updated] = await tx
      .update(refundRequests)
      .set({ status: 'responded', creatorResponse: message, respondedAt: new Date() })
      .where(eq(refundRequests.id, id))
      .returning();
    await runEffects(tx, publicUrl, updated!, move.effects, 'creator');
    return updated!;
  });
}

/**
 * Refunds (by the creator accepting, or staff) or rejects (staff) a request, in one transaction: the
 * request row, then the item's rows, then the accounts; audited when staff decide.
 */
export async function decideRefund(
  db: Db,
  publicUrl: string,
  opts: { id: number; userId: number; actor: 'creator' | 'staff'; decision: 'refund' | 'reject'; note?: string },
) {
  return db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    const row = await lockRequest(tx, opts.id, { userId: opts.userId, actor: opts.actor });
    const to = opts.decision === 'refund' ? 'refunded' : 'rejected';
    const move = checkMove(row, to, opts.actor);
    const transactionId = move.effects.includes('ledger_refund') ? await refundSubject(tx, row) : null;
    if (move.effects.includes('earnings_unhold')) await releaseRefundHold(tx, { line: await lineOf(tx, row), requestId: row.id });
    const [updated] = await tx
      .update(refundRequests)
      .set({
        status: to,
        resolvedAt: new Date(),
        resolvedBy: opts.userId,
        staffNote: opts.actor === 'staff' ? opts.note || null : row.staffNote,
        refundTransactionId: transactionId,
      })
      .where(eq(refundRequests.id, row.id))
      .returning();
    if (move.effects.includes('audit')) {
      await recordAudit(tx, {
        staffId: opts.userId,
        action: `refund_request.${opts.decision}`,
        subjectType: 'refund_request',
        subjectId: row.id,
        before: { status: row.status },
        after: { status: to, note: opts.note ?? '', amount_minor: row.amountMinor, ledger_transaction_id: transactionId },
      });
    }
    await runEffects(tx, publicUrl, updated!, move.effects, opts.actor);
    return { row: updated!, sellerId: row.creatorId };
  });
}

type ListedRow = RequestRow & { title: string | null; chatId: number | null; buyerNickname: string; creatorNickname: string };

async function listRows(db: Db, where: ReturnType<typeof and>, limit = 200): Promise<ListedRow[]> {
  const buyer = sql<string>`(select nickname from users where id = ${refundRequests.buyerId})`;
  const creator = sql<string>`(select nickname from users where id = ${refundRequests.creatorId})`;
  const rows = await db
    .select({ r: refundRequests, title: products.title, chatId: chatMessages.chatId, buyerNickname: buyer, creatorNickname: creator })
    .from(refundRequests)
    .leftJoin(products, eq(products.id, refundRequests.productId))
    .leftJoin(chatMessages, eq(chatMessages.id, refundRequests.chatMessageId))
    .where(where)
    .orderBy(desc(refundRequests.id))
    .limit(limit);
  return rows.map((x) => ({ ...x.r, title: x.title, chatId: x.chatId, buyerNickname: x.buyerNickname, creatorNickname: x.creatorNickname }));
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function toAnswer(r: ListedRow, role: RefundRequest['role'], currency: DisplayCurrency): RefundRequest {
  const messages: RefundRequest['messages'] = [{ from: 'buyer', text: r.message, created_at: seconds(r.createdAt) }];
  if (r.creatorResponse && r.respondedAt) messages.push({ from: 'creator', text: r.creatorResponse, created_at: seconds(r.respondedAt) });
  if (r.staffNote && r.resolvedAt) messages.push({ from: 'staff', text: r.staffNote, created_at: seconds(r.resolvedAt) });
  return {
    id: r.id,
    status: r.status,
    reason: r.reason,
    role,
    order_id: r.orderId,
    product_id: r.productId,
    unlock_message_id: r.chatMessageId,
    chat_id: r.chatId,
    title: r.title ?? (r.chatMessageId !== null ? `Chat image #${r.chatMessageId}` : ''),
    amount: amountAnswer(r.amountMinor, currency),
    buyer: { id: r.buyerId, nickname: r.buyerNickname },
    creator: { id: r.creatorId, nickname: r.creatorNickname },
    messages,
    created_at: seconds(r.createdAt),
    resolved_at: r.resolvedAt ? seconds(r.resolvedAt) : null,
  };
}

/** GET /api/refund-requests: requests where the user is the buyer or the creator, newest first. */
export async function listMyRefundRequests(db: Db, userId: number, currency: DisplayCurrency, status?: RefundStatus): Promise<RefundRequest[]> {
  const rows = await listRows(
    db,
    and(or(eq(refundRequests.buyerId, userId), eq(refundRequests.creatorId, userId)), status ? eq(refundRequests.status, status) : undefined),
  );
  return rows.map((r) => toAnswer(r, r.buyerId === userId ? 'buyer' : 'creator', currency));
}

/** One request of the user (either side), or a 404. */
export async function findMyRefundRequest(db: Db, userId: number, id: number, currency: DisplayCurrency): Promise<RefundRequest> {
  const [row] = await listRows(db, and(eq(refundRequests.id, id), or(eq(refundRequests.buyerId, userId), eq(refundRequests.creatorId, userId))), 1);
  if (!row) throw notFound(REFUND_MESSAGES.notFound);
  return toAnswer(row, row.buyerId === userId ? 'buyer' : 'creator', currency);
}

/** The staff queue: open (with answered ones), refunded or rejected; each with the file and both parties' history. */
export async function listAdminRefundRequests(
  db: Db,
  currency: DisplayCurrency,
  status?: 'open' | 'refunded' | 'rejected',
  onlyId?: number,
): Promise<AdminRefundRequest[]> {
  const statusWhere = status === 'open' ? inArray(refundRequests.status, ['open', 'responded']) : status ? eq(refundRequests.status, status) : undefined;
  const rows = await listRows(db, and(statusWhere, onlyId !== undefined ? eq(refundRequests.id, onlyId) : undefined));
  const people = [...new Set(rows.flatMap((r) => [r.buyerId, r.creatorId]))];
  const counts = people.length
    ? await db
        .select({
          buyerId: refundRequests.buyerId,
          creatorId: refundRequests.creatorId,
          refunded: sql<boolean>`${refundRequests.status} = 'refunded'`,
        })
        .from(refundRequests)
        .where(or(inArray(refundRequests.buyerId, people), inArray(refundRequests.creatorId, people)))
    : [];
  const historyOf = (userId: number, side: 'buyerId' | 'creatorId') => {
    const mine = counts.filter((c) => c[side] === userId);
    return { requests: mine.length, refunded: mine.filter((c) => c.refunded).length };
  };
  const slugs = rows.filter((r) => r.productId !== null).map((r) => r.productId!);
  const slugRows = slugs.length ? await db.select({ id: products.id, slug: products.slug }).from(products).where(inArray(products.id, slugs)) : [];
  return rows.map((r) => {
    const slug = slugRows.find((s) => s.id === r.productId)?.slug;
    return {
      ...toAnswer(r, 'staff', currency),
      file_url: r.chatMessageId !== null ? `/api/admin/refund-requests/${r.id}/file` : slug ? `/products/${slug}` : null,
      history: { buyer: historyOf(r.buyerId, 'buyerId'), creator: historyOf(r.creatorId, 'creatorId') },
    };
  });
}
