import { CHAT_SYSTEM_MESSAGES, type ChatStatus, chatIdParams, formatPrice, minorToAmount, okEnvelope, unlockInput, unlockResult } from '@atelier/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asDb, type Db } from '../../db/client';
import { chatMessages } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { idempotencyKeyOf, runIdempotent } from '../../lib/idempotency';
import { enqueue } from '../../lib/jobs';
import { getCommerceSettings, InsufficientFunds, postSale, type SaleStatementShape, saleAccountIds, settleReceivablesOf, spendableOf } from '../ledger';
import { notify } from '../notifications';
import { shortfallMessage } from '../orders';
import { createCardIntent, type PurposeLock, registerDepositPurpose, startWidgetCheckout } from '../payments';
import { type TaxDecision, taxLines, taxOfPurchase } from '../tax';
import {
  type ChatRow,
  chatLink,
  deliverMessage,
  displayName,
  findChatFor,
  findMessage,
  lockChatById,
  type MessageRow,
  newestLockedImageId,
  otherOf,
  setDealState,
  toChatMessage,
} from './chat.queries';
import { type ChatEvent, type ChatRole, type ChatTransition, chatStateMessages, chatTransition, DEAL_WAIT_MS, type DealNotice, waitingOn } from './chat-states';

/**
 * The commission deal: carries out the moves of `chat-states.ts` (its table names each move's
 * effects), the unlock of a locked image (from the balance, or by card through the widget, whose
 * webhook completes it), and the expiry of a deal left waiting. The messages route sends a
 * participant's deal moves (a proposal, an answer, a locked image) here.
 */

export const CHAT_UNLOCK_PURPOSE = 'chat_unlock';
export const DEAL_EXPIRE_JOB = 'chat.deal-expire';

export const DEAL_MESSAGES = {
  notPayable: 'This image can no longer be unlocked: its deal was cancelled or closed. Ask the creator for a new price.',
  priceAboveMax: (max: string) => `The price may be at most ${max}, the largest card payment.`,
  otherPrice: (agreed: string) => `The agreed price is ${agreed}. To ask for a different price, cancel this deal and propose a new price.`,
  cardAboveMax: (max: string) => `Your balance does not cover the price, and a card payment may be at most ${max}. Please add funds first.`,
  cardEnded: 'The card payment did not go through. Please try again.',
} as const;

const euros = (minor: number) => formatPrice(minorToAmount(minor), '€');
export const roleOf = (chat: ChatRow, userId: number): ChatRole => (chat.recipientId === userId ? 'creator' : 'buyer');
const partyOf = (chat: ChatRow, role: ChatRole) => (role === 'creator' ? chat.recipientId : chat.senderId);

/** The move `event` by `userId` (null: the system), or a 409 saying why not. */
export function dealMove(chat: ChatRow, event: ChatEvent, userId: number | null): ChatTransition {
  const move = chatTransition(chat.status as ChatStatus, event, userId === null ? 'system' : roleOf(chat, userId));
  if ('refused' in move) throw new AppError('CONFLICT', move.refused === 'role' ? chatStateMessages.wrongRole(event) : chatStateMessages.wrongState);
  return move;
}

/** The largest price a deal may have: a short balance pays it by card, and a card payment is at most deposit_max. */
export async function dealPriceMaxMinor(db: Db): Promise<number> {
  return Math.round((await getCommerceSettings(db)).deposit_max * 100);
}

/** 422 unless a locked image's price is the agreed one (none given means the agreed one). */
export function checkLockedPrice(chat: ChatRow, priceMinor: number | null) {
  if (priceMinor !== null && chat.dealPriceMinor !== null && priceMinor !== chat.dealPriceMinor) {
    throw validationError({ price: DEAL_MESSAGES.otherPrice(euros(Number(chat.dealPriceMinor))) });
  }
}

type MoveInput = {
  /** A proposal's price. */
  priceMinor?: number;
  /** The finished image (stored already) with its caption. */
  image?: { key: string; previewKey: string | null; name: string; text: string | null };
  /** The locked image being paid, and the buyer's tax decided when they paid (null: none carved out). */
  paid?: { row: MessageRow; tax: TaxDecision | null };
};

/** The bell's text for each kind of move, naming who made it. */
const noticeText: Record<DealNotice, (name: string) => string> = {
  price_proposed: (name) => `${name} offered a price`,
  price_accepted: (name) => `${name}: ${CHAT_SYSTEM_MESSAGES.priceAccepted}`,
  price_negotiated: (name) => `${name}: ${CHAT_SYSTEM_MESSAGES.negotiate}`,
  image_ready: (name) => `${name} sent your image: unlock it to download`,
  image_unlocked: (name) => `${name} unlocked your image`,
  deal_cancelled: (name) => `${name} cancelled the deal`,
  deal_expired: () => CHAT_SYSTEM_MESSAGES.dealExpired,
};

/**
 * Makes a deal move on the locked chat row and carries out its effects as the table names them: the
 * charge, the chat's status and price, the message, the notification, and the expiry of the next
 * wait. `actorId` null is the system. Returns the message written.
 */
export async function moveDeal(tx: Db, chat: ChatRow, event: ChatEvent, actorId: number | null, input: MoveInput = {}): Promise<MessageRow> {
  const move = dealMove(chat, event, actorId);
  const { effects } = move;
  if (effects.charge === 'image_price') await chargeImage(tx, chat, input.paid!.row, input.paid!.tax);
  const price = effects.price === 'set' ? input.priceMinor! : effects.price === 'keep' ? chat.dealPriceMinor : null;
  const step = await setDealState(tx, chat.id, move.to, price);

  // The system's line is written in the name of the side the deal waited on.
  const authorId = actorId ?? partyOf(chat, waitingOn(chat.status as ChatStatus) ?? 'creator');
  const values =
    effects.message.kind === 'price_proposal'
      ? { kind: 'price_proposal', priceMinor: price }
      : effects.message.kind === 'locked_image'
        ? {
            kind: 'locked_image',
            body: input.image!.text,
            attachmentKey: input.image!.key,
            previewKey: input.image!.previewKey,
            attachmentName: input.image!.name,
            isLocked: true,
            priceMinor: price,
          }
        : { kind: 'system', body: CHAT_SYSTEM_MESSAGES[effects.message.text] };
  const text = noticeText[effects.notify](actorId === null ? '' : await displayName(tx, actorId));
  let row: MessageRow;
  if (actorId === null) {
    row = await deliverMessage(tx, chat, authorId, values, effects.notify, text);
    // The system moved: both sides hear of it.
    await notify(tx, { userId: authorId, kind: effects.notify, text, link: chatLink(chat.id), chatId: chat.id, data: { messageId: row.id } });
  } else row = await deliverMessage(tx, chat, actorId, values, effects.notify, text);

  if (effects.waitsOn) {
    await enqueue(tx, DEAL_EXPIRE_JOB, { chatId: chat.id, step }, { runAt: new Date(Date.now() + DEAL_WAIT_MS), singletonKey: `chat:${chat.id}:step:${step}` });
  }
  return row;
}

/** Whether `row` is the image the chat's deal waits to be paid for (a cancelled deal's image is not). */
async function isDealImage(tx: Db, chat: ChatRow, row: MessageRow): Promise<boolean> {
  return chat.status === 'waiting_payment' && row.kind === 'locked_image' && row.priceMinor !== null && (await newestLockedImageId(tx, chat.id)) === row.id;
}

/** What the buyer pays for a locked image under `tax`, and the VAT part of it (issue 33: as an order's line). */
export function imageCharge(row: MessageRow, tax: TaxDecision | null): { paidMinor: number; vatMinor: number } {
  const taxed = taxLines(tax, [Number(row.priceMinor)]);
  return { paidMinor: taxed.paid[0]!, vatMinor: taxed.vat[0]! };
}

/**
 * The accounts an image's sale (`postSale`) touches: the buyer's, their available earnings, the
 * creator's pending earnings, the buyer's revenue shard, and the VAT account of the buyer's country.
 */
async function imageAccounts(tx: Db, row: MessageRow, buyerId: number, tax: TaxDecision | null) {
  const vatCountry = imageCharge(row, tax).vatMinor > 0 ? tax!.country : null;
  return saleAccountIds(tx, { buyerId, sellerIds: [row.userId], clearingDays: (await getCommerceSettings(tx)).earnings_clearing_days, vatCountry });
}

/**
 * What an image's sale writes besides the money, in the sale's own statement: the split and the tax
 * the unlock keeps (a refund gives back exactly them; the OSS report and the reconciliation read them).
 */
const IMAGE_SALE: SaleStatementShape = {
  name: 'chat_image',
  ctes: (_transactionId, v) => sql`m as (
      update chat_messages set seller_minor = (${v('saleSellerMinor')}::bigint[])[1],
        commission_minor = (${v('saleCommissionMinor')}::bigint[])[1],
        earnings_state = (${v('saleLineStates')}::text[])[1],
        vat_minor = (${v('saleVatMinor')}::bigint[])[1],
        paid_minor = ${v('paidMinor')}::bigint,
        tax_country = ${v('taxCountry')}::text,
        tax_rate_bp = ${v('taxRateBp')}::int,
        reverse_charge = ${v('reverseCharge')}::boolean,
        buyer_vat_number = ${v('buyerVatNumber')}::text,
        tax_evidence = ${v('taxEvidence')}::jsonb
      where id = ${v('messageId')}::bigint
      returning id
    )`,
  written: () => sql`(select count(*) from m)`,
  columns: () => sql``,
};

/**
 * The charge of `unlock_paid`: the buyer → the creator (the net less the commission), → the
 * platform's revenue and → the VAT of the buyer's country (issue 33, carved out of the price as an
 * order's line is), keyed by the message so it happens once; the original is then the buyer's.
 * Throws InsufficientFunds when the balance is short.
 */
async function chargeImage(tx: Db, chat: ChatRow, row: MessageRow, tax: TaxDecision | null) {
  const buyerId = otherOf(chat, row.userId);
  const settings = await getCommerceSettings(tx);
  const { paidMinor, vatMinor } = imageCharge(row, tax);
  await postSale(
    tx,
    {
      buyerId,
      shares: [{ sellerId: row.userId, amountMinor: paidMinor, platformOwned: false, vatMinor }],
      vatCountry: vatMinor > 0 ? tax!.country : null,
      commissionPercent: settings.commission_percent,
      clearingDays: settings.earnings_clearing_days,
      reason: 'chat image unlock',
      subject: { type: 'chat_message', id: row.id },
      idempotency: `chat-unlock:${row.id}`,
    },
    {
      shape: IMAGE_SALE,
      values: {
        messageId: row.id,
        paidMinor,
        taxCountry: tax?.country ?? null,
        taxRateBp: tax?.rateBp ?? 0,
        reverseCharge: tax?.reverseCharge ?? false,
        buyerVatNumber: tax?.vatNumber ?? null,
        taxEvidence: tax ? JSON.stringify(tax.evidence) : null,
      },
    },
  );
  await tx.update(chatMessages).set({ unlockedAt: new Date(), isLocked: false }).where(eq(chatMessages.id, row.id));
}

/**
 * The card widget's webhook completes the unlock it was started for, in the lock order of
 * features/ledger: the chat and the message first (here), then the deposit and every account (the
 * webhook). Already paid (from the balance meanwhile), or its deal cancelled: the credit stays on
 * the buyer's balance.
 */
registerDepositPurpose(CHAT_UNLOCK_PURPOSE, async (tx, deposit): Promise<PurposeLock | null> => {
  const chatId = Number(deposit.purpose.chatId);
  const messageId = Number(deposit.purpose.messageId);
  const chat = await findChatFor(tx, chatId, deposit.userId, { lock: true });
  const row = chat ? await findMessage(tx, chatId, messageId, { lock: true }) : null;
  if (!chat || !row || row.unlockedAt || row.userId === deposit.userId || !(await isDealImage(tx, chat, row))) return null;
  // The tax decided when the buyer chose to pay by card (kept with the intent): the card pays exactly its total.
  const tax = (deposit.purpose.tax as TaxDecision | undefined) ?? null;
  const accounts = await imageAccounts(tx, row, deposit.userId, tax);
  return { accountIds: accounts, pay: async () => void (await moveDeal(tx, chat, 'unlock_paid', deposit.userId, { paid: { row, tax } })) };
});

/**
 * Closes a deal still in the wait this job was made for (the chat's deal_step has not moved since):
 * 14 days without the other side's move. Any later move made its own job; this one then does nothing.
 */
export async function expireDeal(db: Db, chatId: number, step: number): Promise<boolean> {
  return db.transaction(async (txRaw) => {
    const tx = asDb(txRaw);
    const chat = await lockChatById(tx, chatId);
    if (!chat || chat.dealStep !== step || !waitingOn(chat.status as ChatStatus)) return false;
    await moveDeal(tx, chat, 'expire_deal', null);
    return true;
  });
}

export function registerDealExpiry(app: FastifyInstance) {
  app.jobs.register<{ chatId: number; step: number }>(DEAL_EXPIRE_JOB, async ({ chatId, step }, ctx) => {
    if (await expireDeal(ctx.db, chatId, step)) ctx.log.info({ chatId }, 'chat deal expired');
  });
}

/**
 * POST /chat/{id}/unlock pays a locked image from the buyer's balance through the ledger, on the
 * locked chat and message rows. A second unlock (parallel or later, with or without Idempotency-Key)
 * charges nothing. When the balance is short the answer is a card payment of exactly the price
 * through the widget (`payment_type: "widget"`, `widget_data`, `order_id`); its intent is written in
 * the transaction and the provider asked after the commit; its webhook completes the unlock.
 */
export const chatDealRoutes: FastifyPluginAsyncZod = async (app) => {
  registerDealExpiry(app);
  const tags = ['chat'];

  app.post(
    '/chat/:chatId/unlock',
    { config: guard('verified'), schema: { tags, params: chatIdParams, body: unlockInput, response: { 200: okEnvelope(unlockResult) } } },
    async (request) => {
      const me = currentUser(request);
      const chat = await findChatFor(app.db, request.params.chatId, me.id);
      if (!chat) throw notFound('This chat was not found.');
      const message = await findMessage(app.db, chat.id, request.body.message_id);
      if (!message) throw notFound('This message was not found.');
      if (message.kind !== 'locked_image' || message.priceMinor === null) throw validationError({ message_id: CHAT_SYSTEM_MESSAGES.noPrice });
      if (message.userId === me.id) throw new AppError('FORBIDDEN', 'This is your own image.');
      const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
      // The buyer's VAT (issue 33), decided before the transaction as a purchase's is.
      const tax = await taxOfPurchase(request, me.id);
      const outcome = await runIdempotent(
        app.db,
        { userId: me.id, key: idempotencyKeyOf(request), scope: `chat/unlock/${chat.id}`, body: request.body },
        async (tx): Promise<{ paid: true } | { cardDepositId: number }> => {
          const lockedChat = (await findChatFor(tx, chat.id, me.id, { lock: true }))!;
          const row = (await findMessage(tx, chat.id, message.id, { lock: true }))!;
          if (row.unlockedAt) return { paid: true };
          if (!(await isDealImage(tx, lockedChat, row))) throw new AppError('CONFLICT', DEAL_MESSAGES.notPayable);
          const price = imageCharge(row, tax).paidMinor;
          // SPEC §7: a short balance (with available earnings) pays by card, exactly the price (never above the largest card payment).
          if ((await spendableOf(tx, me.id)) < price) {
            const max = await dealPriceMaxMinor(tx);
            if (price > max) throw validationError({ balance: DEAL_MESSAGES.cardAboveMax(euros(max)) });
            const intent = await createCardIntent(tx, app.config, {
              userId: me.id,
              amountMinor: price,
              purpose: { kind: CHAT_UNLOCK_PURPOSE, chatId: chat.id, messageId: row.id, tax },
            });
            return { cardDepositId: intent.depositId };
          }
          try {
            await moveDeal(tx, lockedChat, 'unlock_paid', me.id, { paid: { row, tax } });
          } catch (err) {
            if (err instanceof InsufficientFunds) throw validationError({ balance: shortfallMessage(err.shortfallMinor, currency) });
            throw err;
          }
          return { paid: true };
        },
      );
      // After the commit: the provider starts the card payment, keyed by the deposit's id.
      if ('cardDepositId' in outcome) {
        const card = await startWidgetCheckout(app.db, app.config, { depositId: outcome.cardDepositId, email: me.email });
        if (card) return ok({ status: 'Pending' as const, payment_type: 'widget' as const, ...card });
      }
      const row = await findMessage(app.db, chat.id, message.id);
      if (!row?.unlockedAt) throw new AppError('CONFLICT', DEAL_MESSAGES.cardEnded);
      // A creator who owes refunds (a receivable below zero) pays them back from this sale first.
      await settleReceivablesOf(app.db, [row.userId]);
      return ok({ status: 'Success' as const, message: toChatMessage(row, me.id, currency) });
    },
  );
};
