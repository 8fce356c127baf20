import {
  formatPrice,
  LICENCE_MESSAGES,
  type LicenceTier,
  licencePriceMinor,
  minorToAmount,
  type Order,
  type ProductType,
  shortfallAmount,
} from '@atelier/shared';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { prebuilt } from '../../db/prebuilt';
import { packItems, products, userProducts, users } from '../../db/schema';
import { isVisibleProduct, PACK_MIN_ITEMS, visibleProductWhere } from '../../db/visibility';
import { validationError } from '../../lib/app-error';
import type { DisplayCurrency } from '../../lib/display-currency';
import { enqueueSql } from '../../lib/jobs';
import { isUniqueViolation } from '../../lib/pg-errors';
import { runningSaleOfOwnerSql } from '../discounts';
import {
  commissionOf,
  InsufficientFunds,
  knownSaleAccounts,
  postSale,
  type SaleAccountRow,
  type SaleShare,
  type SaleStatementShape,
  saleAccountColumns,
  saleAccountValues,
  saleSellerShare,
} from '../ledger';
import { EVENTS_CHANNEL, silencedSql } from '../notifications';
import { buyerCardCountrySql, type TaxDecision, taxLines } from '../tax';
import { type OrderItemRow, orderAnswer, ownedAmong, productCategoryUrl, productTagNames } from './orders.queries';
import { ORDER_RECEIPT_JOB } from './receipts';

/**
 * The purchase rule. One call runs inside one database transaction: it checks what is bought, moves
 * the price from the buyer's balance to each author (less the platform's commission, which goes to
 * platform revenue; a platform-owned product credits revenue in full), records the order and what the
 * buyer now owns, and takes the products out of the buyer's cart. Any failure rolls everything back.
 */

export const MESSAGES = {
  notFound: 'This product does not exist.',
  unavailable: 'This product is not available for sale.',
  own: 'You cannot buy your own product.',
  owned: 'You already own this product.',
  emptyCart: 'Your cart is empty.',
  packBroken: `This pack is no longer for sale: fewer than ${PACK_MIN_ITEMS} of its works are still available.`,
} as const;

/** The shortfall is shown rounded up (`shortfallAmount`): adding the amount shown always covers it. */
export function shortfallMessage(shortfallMinor: number, currency: DisplayCurrency): string {
  const amount = formatPrice(shortfallAmount(shortfallMinor, currency), currency.symbol, currency.decimals);
  return `Your balance is too low: ${amount} is missing. Please add funds to continue.`;
}

export type Sellable = {
  id: number;
  slug: string;
  title: string;
  productType: ProductType;
  priceMinor: number;
  /** The other licence tiers' prices (issue 34); null: not offered. `priceMinor` is the commercial one. */
  personalPriceMinor: number | null;
  extendedPriceMinor: number | null;
  authorId: number;
  platformOwned: boolean;
  previewPath: string | null;
};

/** Products by id with what a sale needs; for a buyer also whether they own each, its tags and category, and whether its owner runs a sale. */
const sellablesOf = (forBuyer: boolean) =>
  prebuilt(
    `sellables_${forBuyer ? 'buyer' : 'any'}`,
    (v) => sql`select ${products.id} as id, ${products.slug} as slug, ${products.title} as title, ${products.productType} as product_type,
        ${products.priceMinor} as price_minor, ${products.personalPriceMinor} as personal_price_minor, ${products.extendedPriceMinor} as extended_price_minor,
        ${products.authorId} as author_id, ${products.platformOwned} as platform_owned, ${products.previewPath} as preview_path,
        ${products.status} as status, ${products.moderation} as moderation,
        ${users.deletedAt} as author_deleted_at, ${users.moderation} as author_moderation, ${users.nickname} as author_nickname,
        ${
          forBuyer
            ? sql`${productTagNames} as tags, ${productCategoryUrl} as category_url,
        exists (select 1 from ${userProducts} where ${userProducts.userId} = ${v('buyerId')} and ${userProducts.productId} = ${products.id}) as owned,
        ${runningSaleOfOwnerSql(sql`case when ${products.platformOwned} then 0 else ${products.authorId} end`)} as on_sale,
        ${saleAccountColumns(v, sql`${products.authorId}`)},
        ${buyerCardCountrySql(v('buyerId'))} as buyer_card_country`
            : sql`null as tags, null as category_url, null as owned, null as on_sale, null as buyer_card_country`
        }
      from ${products} join ${users} on ${users.id} = ${products.authorId}
      where ${products.id} = any(${v('ids')}::bigint[])`,
  );
const sellablesForBuyer = sellablesOf(true);
const sellablesForAnyone = sellablesOf(false);

type SellableRow = {
  id: string | number;
  slug: string;
  title: string;
  product_type: ProductType;
  price_minor: string | number;
  personal_price_minor: string | number | null;
  extended_price_minor: string | number | null;
  author_id: string | number;
  platform_owned: boolean | string;
  preview_path: string | null;
  status: string;
  moderation: string | null;
  author_deleted_at: Date | string | null;
  author_moderation: string | null;
  author_nickname: string | null;
  tags: string[] | null;
  category_url: string | null;
  owned: boolean | string | null;
  on_sale: boolean | string | null;
  buyer_card_country: string | null;
} & Partial<SaleAccountRow>;

const flag = (x: boolean | string | null) => x === true || x === 't';
const minorOrNull = (x: string | number | null) => (x == null ? null : Number(x));

/**
 * Products by id with their sale-relevant fields; hidden ones and those of deleted authors flagged.
 * For a buyer, the same query also says which they own already and whether a sale runs for each (so
 * pricing asks nothing more when none does), carries the author's nickname and the tags, and reads
 * the sale's accounts (the ledger's saleAccountColumns, for the clearing period given).
 */
export async function loadSellables(db: Db, ids: number[], buyer?: { id: number; clearingDays?: number }) {
  if (!ids.length) return [];
  const query =
    buyer === undefined ? sellablesForAnyone({ ids }) : sellablesForBuyer({ ids, buyerId: buyer.id, ...saleAccountValues(buyer.id, buyer.clearingDays) });
  return rowsOf<SellableRow>(await db.execute(query)).map((r) => {
    const row = {
      id: Number(r.id),
      slug: r.slug,
      title: r.title,
      productType: r.product_type,
      priceMinor: Number(r.price_minor),
      personalPriceMinor: minorOrNull(r.personal_price_minor),
      extendedPriceMinor: minorOrNull(r.extended_price_minor),
      authorId: Number(r.author_id),
      platformOwned: flag(r.platform_owned),
      previewPath: r.preview_path,
      status: r.status,
      moderation: r.moderation,
      authorDeletedAt: r.author_deleted_at,
      authorModeration: r.author_moderation,
      authorNickname: r.author_nickname,
      tags: r.tags,
      categoryUrl: r.category_url,
      owned: r.owned == null ? undefined : flag(r.owned),
      onSale: r.on_sale == null ? undefined : flag(r.on_sale),
      /** One piece of the buyer's tax evidence (features/tax), read here so the tax costs no query. */
      buyerCardCountry: r.buyer_card_country,
      saleAccounts:
        buyer === undefined
          ? undefined
          : {
              sale_buyer_account: r.sale_buyer_account ?? null,
              sale_revenue_account: r.sale_revenue_account ?? null,
              sale_spill_account: r.sale_spill_account ?? null,
              sale_earned_account: r.sale_earned_account ?? null,
            },
    };
    return { ...row, available: isVisibleProduct(row) };
  });
}

/** Why this buyer may not buy this product, or null when they may (field errors name `field`). */
export async function saleProblem(db: Db, buyerId: number, product: Awaited<ReturnType<typeof loadSellables>>[number] | undefined): Promise<string | null> {
  if (!product) return MESSAGES.notFound;
  if (!product.available) return MESSAGES.unavailable;
  if (product.authorId === buyerId && !product.platformOwned) return MESSAGES.own;
  const owned = product.owned ?? (await ownedAmong(db, buyerId, [product.id])).has(product.id);
  if (owned) return MESSAGES.owned;
  return null;
}

/** The values a purchase's records take, each one parameter (lists as arrays), so the statement's text never changes. */
type PurchaseValue =
  | 'buyerId'
  | 'title'
  | 'total'
  | 'productType'
  | 'itemProducts'
  | 'itemPacks'
  | 'itemSellers'
  | 'itemPrices'
  | 'itemTiers'
  | 'itemUpgradedFrom'
  | 'bought'
  | 'boughtTiers'
  | 'upgradeProducts'
  | 'upgradeTiers'
  | 'packOnly'
  | 'uncart'
  | 'noteUsers'
  | 'noteTexts'
  | 'noteParams'
  | 'paidCurrency'
  | 'paidRate'
  | 'paidDecimals'
  | 'taxCountry'
  | 'taxRateBp'
  | 'vatTotal'
  | 'reverseCharge'
  | 'buyerVatNumber'
  | 'taxEvidence';

/** The sale's own values (postSale): each line's split and earnings state, in the order of the shares. */
type SaleOwnValue = 'saleSellerMinor' | 'saleCommissionMinor' | 'saleVatMinor' | 'saleLineStates';
type V = (name: PurchaseValue | SaleOwnValue) => SQL;

/**
 * What a purchase writes besides the money, in the ledger's sale statement (`postSale`): the order,
 * its items, what the buyer now owns, the receipt job, the sellers' notifications, and the products
 * taken out of the cart. The ledger writes them first and charges after, in the same statement, so a
 * refused charge leaves none of them.
 */
const PURCHASE_SALE: SaleStatementShape = {
  name: 'purchase',
  // The sale's journal transaction names its order: the order's id is taken first, so the header can carry it.
  subject: { type: 'order', prelude: sql`order_id as (select nextval(pg_get_serial_sequence('orders', 'id')) as id)`, id: sql`(select id from order_id)` },
  // The invoice number is given after the commit (features/tax assignInvoiceNumber, by the receipt job).
  ctes: (transactionId, v: V) => sql`o as (
      insert into orders (id, buyer_id, title, amount_minor, status, product_type, ledger_transaction_id, paid_currency, paid_rate, paid_decimals,
                          tax_country, tax_rate_bp, vat_minor, reverse_charge, buyer_vat_number, tax_evidence)
      overriding system value
      select (select id from order_id), ${v('buyerId')}, ${v('title')}, ${v('total')}, 'success', ${v('productType')}, ${transactionId},
             ${v('paidCurrency')}, ${v('paidRate')}::numeric, ${v('paidDecimals')}::int,
             ${v('taxCountry')}::text, ${v('taxRateBp')}::int, ${v('vatTotal')}::bigint, ${v('reverseCharge')}::boolean, ${v('buyerVatNumber')}::text,
             ${v('taxEvidence')}::jsonb
      returning id, floor(extract(epoch from created_at))::bigint as created_s
    ),
    items as (
      insert into order_items (order_id, product_id, pack_id, seller_id, price_minor, seller_minor, commission_minor, vat_minor, earnings_state, position,
                               licence_tier, upgraded_from)
      select o.id, r.product_id, r.pack_id, r.seller_id, r.price_minor, r.seller_minor, r.commission_minor, r.vat_minor, r.earnings_state, (r.n - 1)::int,
             r.licence_tier, r.upgraded_from
      from o, unnest(${v('itemProducts')}::bigint[], ${v('itemPacks')}::bigint[], ${v('itemSellers')}::bigint[], ${v('itemPrices')}::bigint[],
                     ${v('saleSellerMinor')}::bigint[], ${v('saleCommissionMinor')}::bigint[], ${v('saleVatMinor')}::bigint[], ${v('saleLineStates')}::text[],
                     ${v('itemTiers')}::text[], ${v('itemUpgradedFrom')}::text[])
        with ordinality as r(product_id, pack_id, seller_id, price_minor, seller_minor, commission_minor, vat_minor, earnings_state, licence_tier, upgraded_from, n)
      returning id
    ),
    -- The primary key (user, product) makes a concurrent second purchase of the same product fail here.
    owns as (
      insert into user_products (user_id, product_id, order_id, licence_tier)
      select ${v('buyerId')}, b.p, o.id, b.tier from o, unnest(${v('bought')}::bigint[], ${v('boughtTiers')}::text[]) as b(p, tier)
      returning product_id
    ),
    -- A licence upgrade (issue 34): the buyer keeps the work from its first order and now owns the wider licence.
    tier_up as (
      update user_products up set licence_tier = u.tier
      from o, unnest(${v('upgradeProducts')}::bigint[], ${v('upgradeTiers')}::text[]) as u(p, tier)
      where up.user_id = ${v('buyerId')} and up.product_id = u.p
      returning up.product_id
    ),
    pack_owns as (
      -- A pack's items may be owned already (bought alone before): those rows stay as they are.
      insert into user_products (user_id, product_id, order_id)
      select ${v('buyerId')}, p, o.id from o, unnest(${v('packOnly')}::bigint[]) as p
      on conflict do nothing
      returning product_id
    ),
    cart as (
      delete from cart_items where user_id = ${v('buyerId')} and product_id = any(${v('uncart')}::bigint[]) and exists (select 1 from o)
      returning id
    ),
    receipt as (${enqueueSql(ORDER_RECEIPT_JOB, sql`jsonb_build_object('orderId', o.id)`, sql`o`)}),
    -- The bell's 'you made a sale' for each author who earns (unless they turned it off), announced
    -- live on commit (as notify() does); its params let the bell word it in the page's language.
    sale_notes as (
      insert into notifications (user_id, kind, text, link, data)
      select n.user_id, 'sale_made', n.text, '/dashboard/sales', jsonb_build_object('orderId', o.id, 'params', n.params::jsonb)
      from o, unnest(${v('noteUsers')}::bigint[], ${v('noteTexts')}::text[], ${v('noteParams')}::text[]) as n(user_id, text, params)
      where not ${silencedSql(sql`n.user_id`, 'sale_made', 'bell')}
      returning id, user_id
    ),
    sale_signals as (
      select pg_notify(${EVENTS_CHANNEL}, json_build_object('userId', user_id, 'kind', 'sale_made', 'chatId', null, 'notificationId', id)::text) from sale_notes
    )`,
  written: () => sql`(select count(*) from o) + (select count(*) from items) + (select count(*) from owns) + (select count(*) from pack_owns)
           + (select count(*) from tier_up) + (select count(*) from cart) + (select count(*) from receipt) + (select count(*) from sale_signals)`,
  // Whether a seller of this sale owes refunds (a receivable below zero): only then does the caller
  // settle them from it, and a sale by anyone else costs no query for it.
  columns: (v: V) => sql`, (select id from o) as order_id, (select created_s from o) as created_s,
    exists (select 1 from ledger_accounts where kind = 'receivable' and balance_minor < 0 and owner_id = any(${v('itemSellers')}::bigint[])) as owes_receivable`,
};

/**
 * Splits a pack's price over its items in proportion to their list prices, by largest remainder: each
 * item gets the floor of its exact share, and the cents left over go one each to the items with the
 * largest remainders (ties: the earlier item in the pack). The shares add up to the price exactly.
 */
export function allocate(totalMinor: number, weights: number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? totalMinor : 0));
  const exact = weights.map((w) => BigInt(totalMinor) * BigInt(w));
  const shares = exact.map((e) => Number(e / BigInt(sum)));
  let rest = totalMinor - shares.reduce((s, v) => s + v, 0);
  const order = exact
    .map((e, i) => ({ i, remainder: e % BigInt(sum) }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of order) {
    if (rest <= 0) break;
    shares[i]! += 1;
    rest--;
  }
  return shares;
}

/**
 * Buys `productIds` for the buyer from their balance, in the caller's transaction `tx`, or given the
 * database itself, with its one writing statement as a transaction of its own (PostgreSQL runs every
 * statement atomically): the reads before it take no locks either way.
 * `field` names the request field errors are reported under; `types`, when given, the product types
 * this purchase accepts. Returns the new order as the answer shows it.
 *
 * The rules live here: what may be bought, at what price, and who earns which share (a pack's price
 * split over its items' authors). The money moves through the ledger's one sale writer, `postSale`,
 * whose statement also writes this purchase's records (`PURCHASE_SALE`): it locks the accounts in
 * id order, checks the balance, and only if the money may move writes the journal, the order, its
 * items, what the buyer now owns, the receipt job, and takes the products out of the cart. Accounts stay locked until commit, and a sale's are shared with other sales (the author,
 * the buyer's revenue account): that statement is the last before the commit, and without a caller's
 * transaction it commits by itself, so the locks are never held across a round trip.
 */
export async function purchaseProducts(
  tx: Db,
  opts: {
    buyerId: number;
    productIds: number[];
    currency: DisplayCurrency;
    commissionPercent: number;
    /** Setting earnings_clearing_days (0: the authors' shares are available at once). */
    clearingDays?: number;
    field: string;
    fromCart?: boolean;
    types?: { allowed: ProductType[]; message: string };
    /**
     * The buyer's VAT (features/tax: taxOfSignedInPurchase) from the card country this purchase's read
     * found; it may refuse (a 422) when the evidence disagrees. Without it no VAT is carved out.
     */
    taxOf?: (cardCountry: string | null) => TaxDecision;
    /** Prices the bought lines (issue 34, features/discounts): a discounted price is the line's price from here on. */
    reprice?: (tx: Db, lines: Sellable[]) => Promise<Map<number, number>>;
    /** The licence of each bought product (issue 34); commercial when absent. Its price is the line's list price. */
    tiers?: ReadonlyMap<number, LicenceTier>;
    /**
     * A licence upgrade (issue 34) of a work the buyer owns at `from` (the caller locked that ownership):
     * the line sells the difference, `tiers`' price less `creditMinor`, and the ownership's tier moves.
     */
    upgrade?: { from: LicenceTier; creditMinor: number };
  },
): Promise<{ orderId: number; order: Order; sellerOwesRefunds: boolean }> {
  const { buyerId, field } = opts;
  const ids = [...new Set(opts.productIds)];
  if (!ids.length) throw validationError({ [field]: MESSAGES.emptyCart });
  const found = await loadSellables(tx, ids, { id: buyerId, clearingDays: opts.clearingDays });
  const bought: (Sellable & (typeof found)[number] & { tier: LicenceTier })[] = [];
  const { upgrade } = opts;
  for (const id of ids) {
    const product = found.find((p) => p.id === id);
    if (product && opts.types && !opts.types.allowed.includes(product.productType)) throw validationError({ [field]: opts.types.message });
    // An upgrade is of a work the buyer owns: it only needs to be still for sale.
    const problem = upgrade ? (!product ? MESSAGES.notFound : product.available ? null : MESSAGES.unavailable) : await saleProblem(tx, buyerId, product);
    if (problem) throw validationError({ [field]: ids.length > 1 && product ? `${product.title}: ${problem}` : problem });
    // The licence (issue 34): its price is the line's list price; a pack sells the commercial licence only.
    const tier = opts.tiers?.get(id) ?? 'commercial';
    const named = (message: string) => (ids.length > 1 ? `${product!.title}: ${message}` : message);
    if (product!.productType === 'pack' && tier !== 'commercial') throw validationError({ licence_tier: named(LICENCE_MESSAGES.packCommercial) });
    const listed = licencePriceMinor(product!, tier);
    if (listed === null) throw validationError({ licence_tier: named(LICENCE_MESSAGES.notOffered(tier)) });
    bought.push({ ...product!, tier, priceMinor: upgrade ? listed - upgrade.creditMinor : listed });
  }
  if (opts.reprice) {
    const prices = await opts.reprice(tx, bought);
    for (const p of bought) p.priceMinor = prices.get(p.id) ?? p.priceMinor;
  }

  const single = bought.length === 1 ? bought[0]! : null;
  const title = single ? (upgrade ? `${single.title}: upgrade to the ${single.tier} licence` : single.title) : `${bought.length} items`;
  const productType = single ? single.productType : 'cart';
  /** One line of the order: who earns from it (`sellerId`, unless `platformOwned`) and what it costs. */
  type Row = {
    productId: number;
    packId: number | null;
    sellerId: number;
    priceMinor: number;
    platformOwned: boolean;
    title: string;
    licenceTier: LicenceTier;
    upgradedFrom: LicenceTier | null;
  };
  const rows: Row[] = [];
  const shown: OrderItemRow[] = [];
  const alsoOwned: number[] = [];
  for (const p of bought) {
    const own = {
      title: p.title,
      productType: p.productType,
      previewPath: p.previewPath,
      authorNickname: p.authorNickname,
      tags: p.tags,
      categoryUrl: p.categoryUrl,
    };
    const licence = { licenceTier: p.tier, upgradedFrom: upgrade?.from ?? null };
    const whole = { productId: p.id, packId: null, sellerId: p.authorId, priceMinor: p.priceMinor, platformOwned: p.platformOwned, title: p.title, ...licence };
    if (p.productType !== 'pack') {
      rows.push(whole);
      shown.push({ productId: p.id, priceMinor: p.priceMinor, ...own, ...licence });
      continue;
    }
    const contents = await tx
      .select({
        id: products.id,
        priceMinor: products.priceMinor,
        title: products.title,
        productType: products.productType,
        previewPath: products.previewPath,
        authorId: products.authorId,
        platformOwned: products.platformOwned,
        authorNickname: users.nickname,
        tags: productTagNames,
        categoryUrl: productCategoryUrl,
      })
      .from(packItems)
      .innerJoin(products, eq(products.id, packItems.productId))
      .innerJoin(users, eq(users.id, products.authorId))
      // Only the works still for sale (issue 30 finding 2): one unlisted, hidden or by a deleted author is
      // neither sold, delivered nor paid for; the pack's price is split over those that remain.
      .where(and(eq(packItems.packId, p.id), visibleProductWhere))
      .orderBy(asc(packItems.position));
    if (contents.length < PACK_MIN_ITEMS) {
      throw validationError({ [field]: bought.length > 1 ? `${p.title}: ${MESSAGES.packBroken}` : MESSAGES.packBroken });
    }
    // Each item's author earns the item's share of the pack's price (a platform-owned item's goes to revenue).
    const shares = allocate(
      p.priceMinor,
      contents.map((c) => Number(c.priceMinor)),
    );
    contents.forEach((c, i) => {
      rows.push({ productId: c.id, packId: p.id, sellerId: c.authorId, priceMinor: shares[i]!, platformOwned: c.platformOwned, title: p.title, ...licence });
      shown.push({
        productId: c.id,
        priceMinor: shares[i]!,
        title: c.title,
        productType: c.productType,
        previewPath: c.previewPath,
        // Each item's own author (issue 18 bug 8), not the pack's.
        authorNickname: c.authorNickname,
        tags: c.tags,
        categoryUrl: c.categoryUrl,
        ...licence,
      });
      alsoOwned.push(c.id);
    });
  }

  // VAT (features/tax): each line's price is what the buyer pays for it; its VAT is carved out of it
  // (under reverse charge the line costs its net and carries none). The split below is taken from the net.
  const tax = opts.taxOf ? opts.taxOf(found[0]?.buyerCardCountry ?? null) : null;
  const taxed = taxLines(
    tax,
    rows.map((r) => r.priceMinor),
  );
  rows.forEach((r, i) => {
    r.priceMinor = taxed.paid[i]!;
    shown[i]!.priceMinor = taxed.paid[i]!;
  });
  const total = rows.reduce((s, r) => s + r.priceMinor, 0);
  const vatTotal = taxed.vat.reduce((s, x) => s + x, 0);
  // The rules: each line's author earns its net (a pack item's share) less commission; the ledger moves the money.
  const shares: SaleShare[] = rows.map((r, i) => ({
    sellerId: r.sellerId,
    amountMinor: r.priceMinor,
    platformOwned: r.platformOwned,
    vatMinor: taxed.vat[i]!,
  }));
  // A creator's own pack (issue 34: an approved bundle; the pack's author wrote every work in it) is one
  // sale of theirs: the commission is taken once from the pack's net and spread over its lines by largest
  // remainder, so the creator earns what one work at the pack's price would earn, to the cent.
  for (const p of bought) {
    if (p.productType !== 'pack' || p.platformOwned) continue;
    const lines = rows.flatMap((r, i) => (r.packId === p.id ? [i] : []));
    if (!lines.every((i) => rows[i]!.sellerId === p.authorId && !rows[i]!.platformOwned)) continue;
    const nets = lines.map((i) => shares[i]!.amountMinor - (shares[i]!.vatMinor ?? 0));
    const spread = allocate(
      commissionOf(
        nets.reduce((s, n) => s + n, 0),
        opts.commissionPercent,
      ),
      nets,
    );
    lines.forEach((i, k) => {
      shares[i]!.commissionMinor = spread[k]!;
    });
  }
  // Each author who earns from this sale hears of it (a platform-owned product earns its author nothing).
  const earned = new Map<number, { titles: string[]; amountMinor: number }>();
  for (const r of rows) {
    if (saleSellerShare(shares[rows.indexOf(r)]!, opts.commissionPercent) <= 0 || r.sellerId === buyerId) continue;
    const sold = earned.get(r.sellerId) ?? { titles: [], amountMinor: 0 };
    if (!sold.titles.includes(r.title)) sold.titles.push(r.title);
    sold.amountMinor += r.priceMinor;
    earned.set(r.sellerId, sold);
  }
  const saleNotes = [...earned].map(([authorId, { titles, amountMinor }]) => {
    const title = titles.length === 1 ? titles[0]!.slice(0, 80) : undefined;
    const amount = formatPrice(minorToAmount(amountMinor), '€');
    return {
      authorId,
      text: (title ? `You sold "${title}" (${amount}).` : `You sold ${titles.length} works (${amount}).`).slice(0, 300),
      params: JSON.stringify({ ...(title ? { title } : {}), count: titles.length, amount_minor: amountMinor }),
    };
  });

  // Items of a bought pack that are not also bought on their own line (one statement may not insert a key twice).
  const packOnly = [...new Set(alsoOwned)].filter((id) => !ids.includes(id));
  const values: Record<PurchaseValue, unknown> = {
    buyerId,
    title,
    total,
    productType,
    itemProducts: rows.map((r) => r.productId),
    itemPacks: rows.map((r) => r.packId),
    itemSellers: rows.map((r) => r.sellerId),
    itemPrices: rows.map((r) => r.priceMinor),
    itemTiers: rows.map((r) => r.licenceTier),
    itemUpgradedFrom: rows.map((r) => r.upgradedFrom),
    // An upgrade owns nothing new and takes nothing out of the cart: it moves the owned licence.
    bought: upgrade ? [] : bought.map((p) => p.id),
    boughtTiers: upgrade ? [] : bought.map((p) => p.tier),
    upgradeProducts: upgrade ? bought.map((p) => p.id) : [],
    upgradeTiers: upgrade ? bought.map((p) => p.tier) : [],
    packOnly,
    uncart: upgrade ? [] : [...ids, ...alsoOwned],
    noteUsers: saleNotes.map((n) => n.authorId),
    noteTexts: saleNotes.map((n) => n.text),
    noteParams: saleNotes.map((n) => n.params),
    // The currency the buyer saw the prices in, at today's rate: the order keeps showing them (issue 18 bug 7).
    paidCurrency: opts.currency.code,
    paidRate: opts.currency.rate,
    paidDecimals: opts.currency.decimals,
    taxCountry: tax?.country ?? null,
    taxRateBp: tax?.rateBp ?? 0,
    vatTotal,
    reverseCharge: tax?.reverseCharge ?? false,
    buyerVatNumber: tax?.vatNumber ?? null,
    taxEvidence: tax ? JSON.stringify(tax.evidence) : null,
  };
  let result: Record<string, unknown>[];
  try {
    const sale = await postSale(
      tx,
      {
        buyerId,
        shares,
        commissionPercent: opts.commissionPercent,
        clearingDays: opts.clearingDays,
        reason: upgrade ? 'licence upgrade' : opts.fromCart ? 'cart purchase' : 'purchase',
        vatCountry: tax?.country ?? null,
        // The accounts of the bought products' authors and the buyer, read with the products.
        accounts: knownSaleAccounts(
          buyerId,
          opts.clearingDays,
          bought.flatMap((p) => (p.saleAccounts ? [{ sellerId: p.authorId, accounts: p.saleAccounts }] : [])),
        ),
      },
      { shape: PURCHASE_SALE, values },
    );
    result = [sale.row];
  } catch (err) {
    if (isUniqueViolation(err, 'user_products_pk')) throw validationError({ [field]: MESSAGES.owned });
    // A sale takes money from the buyer alone: a refusal is their balance.
    if (err instanceof InsufficientFunds) throw validationError({ balance: shortfallMessage(err.shortfallMinor, opts.currency) });
    throw err;
  }
  const orderId = Number(result[0]?.order_id);
  if (!Number.isSafeInteger(orderId) || orderId <= 0) throw new Error('The order was not written.');
  const order = orderAnswer(
    {
      id: orderId,
      title,
      amountMinor: total,
      status: 'success',
      productType,
      createdAtSeconds: Number(result[0]!.created_s),
      paid: opts.currency,
      taxCountry: tax?.country ?? null,
      taxRateBp: tax?.rateBp ?? 0,
      vatMinor: vatTotal,
      reverseCharge: tax?.reverseCharge ?? false,
      // Numbered after the commit (assignInvoiceNumber); the invoice link works at once.
      invoiceNumber: null,
    },
    shown,
    opts.currency,
  );
  return { orderId, order, sellerOwesRefunds: result[0]!.owes_receivable === true };
}
