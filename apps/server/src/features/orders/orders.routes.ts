import path from 'node:path';
import { Readable } from 'node:stream';
import {
  buyItemInput,
  buyPackInput,
  buyPromptInput,
  downloadPackQuery,
  downloadQuery,
  isHigherTier,
  LICENCE_MESSAGES,
  type LicenceTier,
  licencePriceMinor,
  okEnvelope,
  order as orderSchema,
  ownedQuery,
  ownership,
  type ProductType,
  type PurchaseResult,
  purchaseLookup,
  purchaseLookupInput,
  purchaseResult,
  upgradeLicenceInput,
} from '@atelier/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZipFile } from 'yazl';
import { z } from 'zod';
import { asDb, type Db } from '../../db/client';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { closeIdempotencyKey, idempotencyKeyOf, runIdempotent } from '../../lib/idempotency';
import { viewCounterOf } from '../analytics';
import { type AppliedDiscount, type PricedLine, priceLines, recordOrderDiscounts, takeUses } from '../discounts';
import { commerceSettingsOf, settleReceivablesOfOrder } from '../ledger';
import { taxOfSignedInPurchase, vatRatesOf } from '../tax';
import { loadSellables, purchaseProducts } from './checkout';
import { bufferFile, cleanFileName, contentDisposition, sendAttachment } from './download';
import { findLicence, licenceText, sendWithLicence } from './licence-file';
import { findDownload, findOwnership, findPackFiles, listOrders, lockOwnedLicence, orderDiscountWire } from './orders.queries';
import { ORDER_RECEIPT_JOB, sendOrderReceipts } from './receipts';

const wrongType: Record<'item' | 'prompt' | 'pack', string> = {
  item: 'This is not an image or text product. Prompts and packs have their own purchase.',
  prompt: 'This product is not a prompt.',
  pack: 'This product is not a pack.',
};
const allowedTypes: Record<'item' | 'prompt' | 'pack', ProductType[]> = { item: ['image', 'doc'], prompt: ['prompt'], pack: ['pack'] };

/**
 * Buys products from the balance for the signed-in user: one transaction, optional Idempotency-Key,
 * then the receipts. Also used by the cart (features/cart) for a checkout of the whole cart.
 */
export async function buyFromBalance(
  request: FastifyRequest,
  opts: {
    productIds: number[] | ((tx: Db, buyerId: number) => Promise<number[]>);
    field: string;
    scope: string;
    fromCart?: boolean;
    types?: { allowed: ProductType[]; message: string };
    /** A discount code (issue 34): it applies to each line it covers; a running sale needs none. */
    discountCode?: string;
    /** The licence of each product (issue 34), or how to read them in the transaction (the cart's lines); commercial when absent. */
    tiers?: ReadonlyMap<number, LicenceTier> | ((tx: Db, buyerId: number) => Promise<ReadonlyMap<number, LicenceTier>>);
    /**
     * A licence upgrade (issue 34): in the transaction, locks the buyer's ownership of the one product
     * and answers what the new licence's price is reduced by; no discount applies to an upgrade.
     */
    upgrade?: (tx: Db, buyerId: number) => Promise<{ from: LicenceTier; creditMinor: number }>;
  },
): Promise<PurchaseResult> {
  const app = request.server;
  const buyer = currentUser(request);
  const key = idempotencyKeyOf(request);
  const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
  // Kept per app server and dropped when PostgreSQL says the settings changed (no query per purchase).
  // The buyer's VAT (features/tax) is decided from the signed-in user's row, the cached rates, and the
  // card country the purchase's read of its products carries: no query of its own.
  const [{ commission_percent, earnings_clearing_days }, rates] = await Promise.all([commerceSettingsOf(app), vatRatesOf(app)]);
  const taxOf = (cardCountry: string | null) => taxOfSignedInPurchase(request, rates, cardCountry);
  let created: number | null = null;
  let sellerOwesRefunds = false;
  const buy = async (db: Db) => {
    const productIds = typeof opts.productIds === 'function' ? await opts.productIds(db, buyer.id) : opts.productIds;
    const tiers = typeof opts.tiers === 'function' ? await opts.tiers(db, buyer.id) : opts.tiers;
    const upgrade = opts.upgrade ? await opts.upgrade(db, buyer.id) : undefined;
    // The discounts (features/discounts): priced and their counted uses taken before the sale's accounts are locked.
    let discounted: AppliedDiscount[] = [];
    const reprice = async (tx: Db, lines: PricedLine[]) => {
      const { prices, applied } = await priceLines(tx, lines, opts.discountCode);
      await takeUses(tx, applied);
      discounted = applied;
      return prices;
    };
    // The order, its receipt job and the charge are written by one statement; the answer is built from what was written.
    const { orderId, order, ...sale } = await purchaseProducts(db, {
      buyerId: buyer.id,
      productIds,
      currency,
      commissionPercent: commission_percent,
      clearingDays: earnings_clearing_days,
      field: opts.field,
      fromCart: opts.fromCart,
      types: opts.types,
      taxOf,
      reprice: upgrade ? undefined : reprice,
      tiers,
      upgrade,
    });
    await recordOrderDiscounts(db, orderId, discounted);
    created = orderId;
    sellerOwesRefunds = sale.sellerOwesRefunds;
    return { status: 'Success' as const, order: discounted.length ? { ...order, discounts: discounted.map(orderDiscountWire(currency)) } : order };
  };
  // One path (issue 30, finding 7): every purchase is one transaction on the one pool; with an
  // Idempotency-Key, the key is claimed and the answer stored in that same transaction.
  let answer: Awaited<ReturnType<typeof buy>>;
  try {
    answer = key
      ? await runIdempotent(app.db, { userId: buyer.id, key, scope: opts.scope, body: request.body }, buy)
      : await app.db.transaction((tx) => buy(asDb(tx)));
  } catch (err) {
    // Refused (not enough balance, not for sale: a 4xx) or failed (anything else); nothing was written.
    app.metrics.money('purchases', err instanceof AppError && err.statusCode < 500 ? 'refused' : 'failed');
    throw err;
  }
  // A replayed Idempotency-Key answers again without a new sale: only a sale made now counts.
  if (created !== null) app.metrics.money('purchases', 'paid');
  if (created !== null) {
    app.log.info({ orderId: created }, 'order paid');
    // The buyer saw what they bought: their view counts, whatever their browser (issue 31 item 2).
    viewCounterOf(app.db).recordPurchase(
      request,
      answer.order.items.map((i) => i.info.id),
    );
    // A seller who owes refunds (a receivable below zero) pays them back from this sale first.
    if (sellerOwesRefunds) await settleReceivablesOfOrder(app.db, created);
  }
  return answer;
}

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.jobs.register<{ orderId: number }>(ORDER_RECEIPT_JOB, ({ orderId }) => sendOrderReceipts(app, orderId));
  async function buyOne(
    request: FastifyRequest,
    id: number,
    kind: 'item' | 'prompt' | 'pack',
    field: string,
    discountCode: string | undefined,
    licenceTier?: LicenceTier,
  ) {
    return ok(
      await buyFromBalance(request, {
        productIds: [id],
        field,
        scope: `purchase/${kind}`,
        types: { allowed: allowedTypes[kind], message: wrongType[kind] },
        discountCode,
        tiers: licenceTier ? new Map([[id, licenceTier]]) : undefined,
      }),
    );
  }

  const tags = ['orders'];
  app.post(
    '/purchase/buy',
    { config: guard('verified'), schema: { tags, body: buyItemInput, response: { 200: okEnvelope(purchaseResult) } } },
    async (request) => buyOne(request, request.body.item_id, 'item', 'item_id', request.body.discount_code, request.body.licence_tier),
  );
  app.post(
    '/purchase/prompt',
    { config: guard('verified'), schema: { tags, body: buyPromptInput, response: { 200: okEnvelope(purchaseResult) } } },
    async (request) => buyOne(request, request.body.prompt_id, 'prompt', 'prompt_id', request.body.discount_code, request.body.licence_tier),
  );
  app.post(
    '/purchase/pack',
    { config: guard('verified'), schema: { tags, body: buyPackInput, response: { 200: okEnvelope(purchaseResult) } } },
    async (request) => buyOne(request, request.body.pack_id, 'pack', 'pack_id', request.body.discount_code),
  );

  /**
   * Issue 34: upgrades the licence the buyer owns for a work (personal → commercial or extended,
   * commercial → extended) for the difference of the two licences' list prices now. It is a sale of
   * that difference: one order with one line (tier and `upgraded_from`), its own split, through the
   * one purchase path; a refund of it gives back exactly that line and the licence it replaced.
   * Someone who does not own the work gets a 404.
   */
  app.post(
    '/purchase/upgrade',
    {
      config: guard('verified'),
      schema: {
        tags,
        summary: 'Upgrade an owned licence for the difference in price',
        body: upgradeLicenceInput,
        response: { 200: okEnvelope(purchaseResult) },
      },
    },
    async (request) => {
      const { product_id: productId, licence_tier: to } = request.body;
      return ok(
        await buyFromBalance(request, {
          productIds: [productId],
          field: 'product_id',
          scope: 'purchase/upgrade',
          types: { allowed: ['image', 'doc', 'prompt'], message: LICENCE_MESSAGES.packCommercial },
          tiers: new Map([[productId, to]]),
          upgrade: async (tx, buyerId) => {
            // The ownership row locked (a domain row, before the ledger's accounts): a second upgrade waits, then sees the new licence.
            const owned = await lockOwnedLicence(tx, buyerId, productId);
            if (!owned) throw notFound(LICENCE_MESSAGES.notOwned);
            if (!isHigherTier(to, owned.tier)) throw validationError({ licence_tier: LICENCE_MESSAGES.notHigher(owned.tier) });
            const [product] = await loadSellables(tx, [productId]);
            if (!product) throw notFound(LICENCE_MESSAGES.notOwned);
            const target = licencePriceMinor(product, to);
            if (target === null) throw validationError({ licence_tier: LICENCE_MESSAGES.notOffered(to) });
            // What the owned licence is worth now; one no longer offered counts at what its line was paid.
            const creditMinor = licencePriceMinor(product, owned.tier) ?? owned.paidMinor;
            if (target - creditMinor <= 0) throw validationError({ licence_tier: LICENCE_MESSAGES.notHigher(owned.tier) });
            return { from: owned.tier, creditMinor };
          },
        }),
      );
    },
  );

  /**
   * Issue 31: what became of a purchase whose answer never arrived, by the Idempotency-Key it was sent
   * with: the order ("You own it") or nothing charged. Only the signed-in user's own keys are found.
   */
  app.post(
    '/purchase/lookup',
    { config: guard('user'), schema: { tags, body: purchaseLookupInput, response: { 200: okEnvelope(purchaseLookup) } } },
    async (request) => {
      const userId = currentUser(request).id;
      const stored = await closeIdempotencyKey(app.db, userId, request.body.idempotency_key);
      if (!stored) return ok({ outcome: 'not_charged' as const });
      const bought = purchaseResult.safeParse(stored.response);
      if (!bought.success) throw validationError({ idempotency_key: 'This Idempotency-Key was used for something other than a purchase.' });
      return ok({ outcome: 'bought' as const, order: bought.data.order });
    },
  );

  app.get('/purchase/history', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(orderSchema)) } } }, async (request) => {
    const userId = currentUser(request).id;
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    return ok(await listOrders(app.db, userId, currency));
  });

  /** For the product page: 'You own this' with its downloads (not in SPEC §7; product answers are shared by every visitor). */
  app.get(
    '/purchase/owned',
    { config: guard('user'), schema: { tags, querystring: ownedQuery, response: { 200: okEnvelope(ownership) } } },
    async (request) => {
      const userId = currentUser(request).id;
      return ok(await findOwnership(app.db, userId, request.query.product_id));
    },
  );

  /** The bought file: only the buyer of a successful order gets it; anyone else a 404. */
  app.get('/user/media/download', { config: guard('user'), compress: false, schema: { tags, querystring: downloadQuery } }, async (request, reply) => {
    const userId = currentUser(request).id;
    const { id, product_id, format } = request.query;
    const item = await findDownload(app.db, userId, id, product_id);
    const missing = new AppError('NOT_FOUND', 'This download was not found in your orders.');
    if (!item) throw missing;
    // Refunded (features/refunds): the buyer has their money back and no longer the file.
    if (item.refundedAt) throw new AppError('GONE', 'This item was refunded: its download is no longer available.');
    // Removed by staff after a report (issue 33): gone for everyone; a restricted work stays with its buyers.
    if (item.moderation === 'removed') throw new AppError('GONE', 'This work was removed after a report: its download is no longer available.');
    // `format=zip` (issue 34): the file with its LICENCE.txt, one ZIP streamed; else the file alone (resumable).
    const send = async (file: { stream: Readable; size: number; fileName: string; ext: string }) => {
      if (format !== 'zip') return sendAttachment(request, reply, file);
      const licence = await findLicence(app.db, userId, id, item.productId);
      if (!licence) {
        file.stream.destroy();
        throw missing;
      }
      return sendWithLicence(reply, file, licenceText(licence, app.config.publicUrl), (err) =>
        request.log.error({ err, productId: item.productId }, 'download archive failed'),
      );
    };
    if (item.productType === 'prompt') {
      const text = item.promptText ?? '';
      return send({ ...bufferFile(Buffer.from(`${text}\n`, 'utf8')), fileName: cleanFileName(item.title, 'txt'), ext: 'txt' });
    }
    if (!item.originalPath) throw missing;
    const file = await app.storage.openPrivate(item.originalPath);
    if (!file) {
      request.log.error({ productId: item.productId }, 'a bought original is missing from storage');
      throw missing;
    }
    const ext = path.extname(item.originalName ?? item.originalPath).slice(1) || 'bin';
    return send({ ...file, fileName: cleanFileName(item.title, ext), ext });
  });

  /**
   * "Download all" of a pack (issue 31 item 7): the files the buyer still has from it, streamed as one
   * ZIP, each read from storage only when the archive reaches it. Anyone who does not own it gets a 404.
   */
  app.get('/user/media/download-pack', { config: guard('user'), compress: false, schema: { tags, querystring: downloadPackQuery } }, async (request, reply) => {
    const found = await findPackFiles(app.db, currentUser(request).id, request.query.pack_id);
    if (!found) throw new AppError('NOT_FOUND', 'This pack was not found in your orders.');
    if (found.files.length === 0) throw new AppError('GONE', 'Every work of this pack was refunded or removed: nothing is left to download.');
    const zip = new ZipFile();
    // LICENCE.txt is the pack's licence: a work titled so gets another name.
    const names = new Set<string>(['LICENCE.txt']);
    const uniqueName = (title: string, ext: string) => {
      let name = cleanFileName(title, ext);
      for (let n = 2; names.has(name); n++) name = cleanFileName(`${title}-${n}`, ext);
      names.add(name);
      return name;
    };
    for (const item of found.files) {
      if (item.productType === 'prompt') {
        zip.addBuffer(Buffer.from(`${item.promptText ?? ''}\n`, 'utf8'), uniqueName(item.title, 'txt'));
        continue;
      }
      if (!item.originalPath) continue;
      const key = item.originalPath;
      const ext = path.extname(item.originalName ?? key).slice(1) || 'bin';
      zip.addReadStreamLazy(uniqueName(item.title, ext), { compress: false }, (done) => {
        // A failure surfaces as the stream's error: the archive stops and the log says why.
        const failed = (err: Error) =>
          new Readable({
            read() {
              this.destroy(err);
            },
          });
        app.storage.openPrivate(key).then(
          (file) => done(null, file ? file.stream : failed(new Error('a bought original is missing from storage'))),
          (err: Error) => done(null, failed(err)),
        );
      });
    }
    // The pack's licence (issue 34: a pack sells the commercial licence), naming its buyer and order.
    const licence = await findLicence(app.db, currentUser(request).id, found.orderId, request.query.pack_id);
    if (licence) zip.addBuffer(Buffer.from(licenceText(licence, app.config.publicUrl), 'utf8'), 'LICENCE.txt');
    zip.end();
    zip.outputStream.on('error', (err) => request.log.error({ err, packId: request.query.pack_id }, 'pack archive failed'));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition(cleanFileName(found.title, 'zip')))
      .header('cache-control', 'private, no-store')
      .send(zip.outputStream);
  });
};
