import { LICENCE_TERMS, minorToAmount, type PlatformSeller } from '@atelier/shared';
import { asc, eq, sql } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { Db } from '../../db/client';
import { orderItems, orders, products, siteSettings, users } from '../../db/schema';
import { displayAmount } from '../../lib/display-currency';
import { PLATFORM_COUNTRY } from './vat';

/** The platform as the seller on its invoices (site settings, edited by staff; these are the defaults). */
export const platformSellerDefaults: PlatformSeller = {
  legal_name: 'Atelier Marketplace Lda.',
  address: 'Rua Criativa 1, 1100-001 Lisboa, Portugal',
  vat_number: `${PLATFORM_COUNTRY}500000000`,
};
const SELLER_KEYS = { legal_name: 'invoice_seller_legal_name', address: 'invoice_seller_address', vat_number: 'invoice_seller_vat_number' } as const;

export async function platformSellerOf(db: Db): Promise<PlatformSeller> {
  const rows = await db
    .select()
    .from(siteSettings)
    .where(sql`${siteSettings.key} in ${Object.values(SELLER_KEYS)}`);
  const out = { ...platformSellerDefaults };
  for (const [field, key] of Object.entries(SELLER_KEYS)) {
    const value = rows.find((r) => r.key === key)?.value;
    if (typeof value === 'string' && value.trim()) out[field as keyof PlatformSeller] = value;
  }
  return out;
}

export async function savePlatformSeller(db: Db, seller: PlatformSeller): Promise<void> {
  for (const [field, key] of Object.entries(SELLER_KEYS)) {
    const value = seller[field as keyof PlatformSeller];
    await db
      .insert(siteSettings)
      .values({ key, value })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: new Date() } });
  }
}

/** An order as its invoice shows it, or null when it is not this user's (staff see every order). */
export async function invoiceDataOf(db: Db, orderId: number, viewer: { id: number; staff: boolean }) {
  const [order] = await db
    .select({ order: orders, buyerName: users.name, buyerSurname: users.surname, buyerEmail: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.buyerId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || (!viewer.staff && order.order.buyerId !== viewer.id)) return null;
  const lines = await db
    .select({
      title: products.title,
      licenceTier: orderItems.licenceTier,
      creator: sql<string>`(select u.nickname from users u where u.id = ${orderItems.sellerId})`,
      priceMinor: orderItems.priceMinor,
      vatMinor: orderItems.vatMinor,
      refundedAt: orderItems.refundedAt,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  return { ...order, lines };
}
type InvoiceData = NonNullable<Awaited<ReturnType<typeof invoiceDataOf>>>;

const eur = (minor: number) => `${minorToAmount(minor).toFixed(2)} EUR`;

/**
 * The invoice (or, with `creditNote`, the credit note that cancels its refunded lines) as a PDF made
 * with pdfkit's built-in fonts (nothing is fetched). Uncompressed, so its text can be read back.
 */
export function renderInvoicePdf(data: InvoiceData, seller: PlatformSeller, creditNote: boolean): Promise<Buffer> {
  const o = data.order;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: false,
    info: { Title: creditNote ? `Credit note ${o.creditNoteNumber}` : `Invoice ${o.invoiceNumber}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const rate = `${(o.taxRateBp / 100).toString()} %`;
  const lines = creditNote ? data.lines.filter((l) => l.refundedAt) : data.lines;
  const sign = creditNote ? -1 : 1;

  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(creditNote ? `Credit note ${o.creditNoteNumber}` : `Invoice ${o.invoiceNumber}`);
  doc.font('Helvetica').fontSize(10);
  if (creditNote) doc.text(`Refers to invoice ${o.invoiceNumber}`);
  doc.text(`Date: ${(creditNote ? (o.creditNoteAt ?? o.createdAt) : o.createdAt).toISOString().slice(0, 10)}`);
  doc.text(`Order: ${o.id}`);
  doc.moveDown();
  doc.font('Helvetica-Bold').text('Seller');
  doc.font('Helvetica').text(seller.legal_name).text(seller.address).text(`VAT number: ${seller.vat_number}`);
  doc.moveDown();
  doc.font('Helvetica-Bold').text('Buyer');
  doc.font('Helvetica').text(`${data.buyerName} ${data.buyerSurname}`.trim() || data.buyerEmail);
  doc.text(`Country: ${o.taxCountry ?? 'unknown'}`);
  if (o.buyerVatNumber) doc.text(`VAT number: ${o.buyerVatNumber}`);
  doc.moveDown();
  doc.font('Helvetica-Bold').text('Work / creator | net | VAT rate | VAT | gross');
  doc.font('Helvetica');
  let net = 0;
  let vat = 0;
  for (const l of lines) {
    const price = Number(l.priceMinor);
    const v = Number(l.vatMinor);
    net += price - v;
    vat += v;
    // Each line names the licence it sold (issue 34), as the receipt and LICENCE.txt do.
    doc.text(
      `${l.title} (${LICENCE_TERMS[l.licenceTier].title}) by ${l.creator} | ${eur(sign * (price - v))} | ${rate} | ${eur(sign * v)} | ${eur(sign * price)}`,
    );
  }
  doc.moveDown();
  doc.text(`Net total: ${eur(sign * net)}`);
  doc.text(`VAT ${rate}: ${eur(sign * vat)}`);
  doc.font('Helvetica-Bold').text(`Total: ${eur(sign * (net + vat))}`);
  doc.font('Helvetica');
  const paidCode = o.paidCurrency ?? 'EUR';
  if (paidCode !== 'EUR' && o.paidRate) {
    const decimals = o.paidDecimals ?? 2;
    const paid = displayAmount(net + vat, { code: paidCode, symbol: paidCode, rate: o.paidRate, decimals });
    doc.text(
      `Paid in ${paidCode}: ${(sign * paid).toFixed(decimals)} ${paidCode} at ${o.paidRate} ${paidCode} per EUR; the EUR amounts above are the invoice's.`,
    );
  } else {
    doc.text('Paid in EUR.');
  }
  if (o.reverseCharge) {
    doc.moveDown().text('Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).');
  }
  doc
    .moveDown()
    .fontSize(8)
    .text(
      `${seller.legal_name}, Lisbon, Portugal. Electronically supplied services; the marketplace is the deemed supplier (Article 9a, Regulation 282/2011).`,
    );
  doc.end();
  return done;
}
