import {
  DAC7_MIN_CONSIDERATION_MINOR,
  DAC7_MIN_SALES,
  type Dac7Report,
  type Dac7Seller,
  SELLER_DETAILS_PATH,
  SELLER_DETAILS_REQUIRED,
  type SellerDetails,
  type SellerDetailsInput,
} from '@atelier/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatMessages, orderItems, orders, sellerDetails, sellerDetailsHistory, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';

/**
 * Trader details (issue 33: DSA art. 30 traceability, DAC7). A creator gives them once before their
 * first listing goes live or their first withdrawal (the gate below); a change after their first sale
 * keeps the details it replaces as history, which staff see.
 */

type Row = typeof sellerDetails.$inferSelect;

function toDetails(row: Row): SellerDetails {
  return {
    kind: row.kind,
    legal_name: row.legalName,
    date_of_birth: row.dateOfBirth,
    address: { line1: row.addressLine1, line2: row.addressLine2, city: row.city, post_code: row.postCode, country: row.country },
    tax_id: row.taxId,
    vat_id: row.vatId,
    registration_number: row.registrationNumber,
    updated_at: Math.floor(row.updatedAt.getTime() / 1000),
  };
}

export async function findSellerDetails(db: Db, userId: number): Promise<SellerDetails | null> {
  const [row] = await db.select().from(sellerDetails).where(eq(sellerDetails.userId, userId)).limit(1);
  return row ? toDetails(row) : null;
}

async function hasSold(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.sellerId, userId), inArray(orders.status, ['success', 'refunded'])))
    .limit(1);
  return Boolean(row);
}

/** Saves the details; after a first sale, the ones replaced are kept in the history (in the same transaction). */
export async function saveSellerDetails(db: Db, userId: number, input: SellerDetailsInput): Promise<SellerDetails> {
  const business = input.kind === 'business';
  const values = {
    kind: input.kind,
    legalName: input.legal_name,
    // Each kind keeps only its own fields: an individual has no registration number, a business no date of birth.
    dateOfBirth: business ? null : (input.date_of_birth ?? null),
    addressLine1: input.address.line1,
    addressLine2: input.address.line2 || null,
    city: input.address.city,
    postCode: input.address.post_code.toUpperCase(),
    country: input.address.country,
    taxId: input.tax_id,
    vatId: input.vat_id || null,
    registrationNumber: business ? (input.registration_number ?? null) : null,
    updatedAt: new Date(),
  };
  return db.transaction(async (tx) => {
    const [old] = await tx.select().from(sellerDetails).where(eq(sellerDetails.userId, userId)).for('update').limit(1);
    if (old && (await hasSold(tx, userId))) await tx.insert(sellerDetailsHistory).values({ userId, details: toDetails(old) });
    const [row] = await tx
      .insert(sellerDetails)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: sellerDetails.userId, set: values })
      .returning();
    return toDetails(row!);
  });
}

/** Staff: the details now and the ones replaced after a sale, newest first. */
export async function sellerDetailsHistoryOf(db: Db, userId: number) {
  const rows = await db.select().from(sellerDetailsHistory).where(eq(sellerDetailsHistory.userId, userId)).orderBy(desc(sellerDetailsHistory.id));
  return {
    user_id: userId,
    current: await findSellerDetails(db, userId),
    history: rows.map((r) => ({ details: r.details as SellerDetails, replaced_at: Math.floor(r.replacedAt.getTime() / 1000) })),
  };
}

/**
 * The gate (issue 33): a 409 with a sentence and the form's address when the creator has not given
 * their trader details. Called before a listing is offered and before a withdrawal starts.
 */
export async function requireSellerDetails(db: Db, userId: number): Promise<void> {
  const [row] = await db.select({ userId: sellerDetails.userId }).from(sellerDetails).where(eq(sellerDetails.userId, userId)).limit(1);
  if (!row) throw new AppError('CONFLICT', SELLER_DETAILS_REQUIRED, { seller_details: [SELLER_DETAILS_REQUIRED, SELLER_DETAILS_PATH] });
}

/**
 * DAC7 for `year`, per seller with sales that year: the consideration per quarter (what buyers paid
 * for their items and their paid chat images, less those refunded), the number of sales, and the fees
 * withheld. Items are dated by their order, images by their unlock. Each line's figures are the split
 * its sale stored (migrations 0036, 0042, 0053): the consideration is its price without the VAT, the
 * fee its commission. The exclusion threshold is applied and shown.
 */
export async function dac7Report(db: Db, year: number): Promise<Dac7Report> {
  const from = new Date(Date.UTC(year, 0, 1));
  const to = new Date(Date.UTC(year + 1, 0, 1));
  const quarter = sql<number>`(extract(quarter from ${orders.createdAt} at time zone 'UTC')::int - 1)`;
  const items = await db
    .select({
      sellerId: orderItems.sellerId,
      orderId: orders.id,
      quarter,
      priceMinor: orderItems.priceMinor,
      vatMinor: orderItems.vatMinor,
      commissionMinor: orderItems.commissionMinor,
      refunded: sql<boolean>`${orderItems.refundedAt} is not null`,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        inArray(orders.status, ['success', 'refunded']),
        sql`${orders.createdAt} >= ${from.toISOString()}::timestamptz`,
        sql`${orders.createdAt} < ${to.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(asc(orderItems.sellerId), asc(orders.id));
  const images = await db
    .select({
      sellerId: chatMessages.userId,
      quarter: sql<number>`(extract(quarter from ${chatMessages.unlockedAt} at time zone 'UTC')::int - 1)`,
      priceMinor: sql<number>`coalesce(${chatMessages.paidMinor}, ${chatMessages.priceMinor})`,
      vatMinor: chatMessages.vatMinor,
      commissionMinor: sql<number>`coalesce(${chatMessages.commissionMinor}, 0)`,
      refunded: sql<boolean>`${chatMessages.refundedAt} is not null`,
    })
    .from(chatMessages)
    .where(
      and(
        sql`${chatMessages.unlockedAt} >= ${from.toISOString()}::timestamptz`,
        sql`${chatMessages.unlockedAt} < ${to.toISOString()}::timestamptz`,
        sql`${chatMessages.priceMinor} > 0`,
      ),
    );
  const bySeller = new Map<number, Omit<Dac7Seller, 'nickname' | 'details' | 'excluded'>>();
  for (const i of [...items, ...images]) {
    const s = bySeller.get(i.sellerId) ?? {
      user_id: i.sellerId,
      consideration_minor: [0, 0, 0, 0],
      fees_minor: [0, 0, 0, 0],
      sales: [0, 0, 0, 0],
      refunded_sales: 0,
      total_consideration_minor: 0,
      total_sales: 0,
    };
    bySeller.set(i.sellerId, s);
    const refunded = i.refunded === true || (i.refunded as unknown) === 't';
    if (refunded) {
      s.refunded_sales += 1;
      continue;
    }
    // The split the sale stored on the line (migration 0036, 0042): the consideration is the price
    // without the VAT the platform owes as deemed supplier; the fee is the commission it kept.
    const price = Number(i.priceMinor) - Number(i.vatMinor);
    const q = Number(i.quarter);
    s.consideration_minor[q]! += price;
    s.fees_minor[q]! += Number(i.commissionMinor);
    s.sales[q]! += 1;
    s.total_consideration_minor += price;
    s.total_sales += 1;
  }
  const ids = [...bySeller.keys()];
  const people = ids.length ? await db.select({ id: users.id, nickname: users.nickname }).from(users).where(inArray(users.id, ids)) : [];
  const details = ids.length ? await db.select().from(sellerDetails).where(inArray(sellerDetails.userId, ids)) : [];
  const sellers: Dac7Seller[] = [...bySeller.values()].map((s) => {
    const d = details.find((x) => x.userId === s.user_id);
    return {
      ...s,
      nickname: people.find((p) => p.id === s.user_id)?.nickname ?? '',
      details: d ? toDetails(d) : null,
      excluded: s.total_sales < DAC7_MIN_SALES && s.total_consideration_minor < DAC7_MIN_CONSIDERATION_MINOR,
    };
  });
  return {
    year,
    threshold: {
      min_sales: DAC7_MIN_SALES,
      min_consideration_minor: DAC7_MIN_CONSIDERATION_MINOR,
      rule: `A seller with fewer than ${DAC7_MIN_SALES} sales and less than 2,000.00 € of consideration in the year is excluded (not reportable).`,
    },
    fees_source: 'Fees are the commission each sold item stored when it was sold; the consideration is its price without VAT.',
    sellers,
  };
}

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};
const euros = (minor: number) => (minor / 100).toFixed(2);

/** The report as CSV: one row per seller, excluded ones included and marked. */
export function dac7Csv(report: Dac7Report): string {
  const head = [
    'user_id',
    'nickname',
    'kind',
    'legal_name',
    'date_of_birth',
    'address',
    'country',
    'tax_id',
    'vat_id',
    'registration_number',
    ...[1, 2, 3, 4].flatMap((q) => [`q${q}_consideration_eur`, `q${q}_fees_eur`, `q${q}_sales`]),
    'total_consideration_eur',
    'total_sales',
    'refunded_sales',
    'excluded',
  ];
  const rows = report.sellers.map((s) => {
    const d = s.details;
    const address = d ? [d.address.line1, d.address.line2, `${d.address.post_code} ${d.address.city}`].filter(Boolean).join(', ') : null;
    return [
      s.user_id,
      s.nickname,
      d?.kind ?? null,
      d?.legal_name ?? null,
      d?.date_of_birth ?? null,
      address,
      d?.address.country ?? null,
      d?.tax_id ?? null,
      d?.vat_id ?? null,
      d?.registration_number ?? null,
      ...[0, 1, 2, 3].flatMap((q) => [euros(s.consideration_minor[q]!), euros(s.fees_minor[q]!), s.sales[q]!]),
      euros(s.total_consideration_minor),
      s.total_sales,
      s.refunded_sales,
      s.excluded ? 'yes' : 'no',
    ]
      .map(csvCell)
      .join(',');
  });
  return `${[head.join(','), ...rows].join('\r\n')}\r\n`;
}
