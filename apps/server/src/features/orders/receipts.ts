import { convertMinor, DEFAULT_CURRENCY, formatPrice, LICENCE_TERMS, minorToAmount } from '@atelier/shared';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orderItems, orders, products, users } from '../../db/schema';
import { displayAmount } from '../../lib/display-currency';
import { mailHtml, sendMail } from '../../lib/mail';
import { discountLine, discountsOfOrders } from '../discounts';
import { wantsNotice } from '../notifications';
import { assignInvoiceNumber } from '../tax';
import { paidCurrencyOf } from './orders.queries';

/** Issue 34: each line names its licence; the terms are on the licence pages and in each download's LICENCE.txt. */
const licenceNote = (publicUrl: string) =>
  `Licence: what each licence permits is in the LICENCE.txt of your download (Download with LICENCE.txt) and at ${publicUrl}/licences/commercial. You may never resell or redistribute the files themselves.`;

const eur = (minor: number) => formatPrice(minorToAmount(convertMinor(minor, 1)), '€');

/**
 * After an order commits: the buyer's receipt (items, amounts, licence, order link) and one
 * 'you made a sale' message per author. Mail failures are logged and never undo the order.
 */
export const ORDER_RECEIPT_JOB = 'receipts.order';

export async function sendOrderReceipts(app: FastifyInstance, orderId: number): Promise<void> {
  // The order's invoice number first (after the purchase's commit, features/tax): the receipt names it.
  await assignInvoiceNumber(app.db, orderId);
  try {
    const [order] = await app.db.select().from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!order) return;
    const [buyer] = await app.db.select().from(users).where(eq(users.id, order.buyerId)).limit(1);
    const items = await app.db
      .select({
        title: products.title,
        priceMinor: orderItems.priceMinor,
        sellerId: orderItems.sellerId,
        licenceTier: orderItems.licenceTier,
        upgradedFrom: orderItems.upgradedFrom,
      })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, orderId));
    // The page the e-mail names (issue 18): Order history itself.
    const link = `${app.config.publicUrl}/dashboard/orders`;
    // Amounts in the currency the buyer saw and paid in, at that day's rate (issue 18 bug 7); the
    // ledger's euros beside them when that was another currency.
    const currency = paidCurrencyOf(order);
    const paid = (minor: number) => formatPrice(displayAmount(minor, currency), currency.code === DEFAULT_CURRENCY ? '€' : currency.code, currency.decimals);
    const total = Number(order.amountMinor);
    // Issue 34: what a code or a sale took off, with the list price (the lines above are what was paid).
    const discounted = ((await discountsOfOrders(app.db, [orderId])).get(orderId) ?? []).map(discountLine);
    if (buyer && !buyer.deletedAt) {
      const lines = [
        `Hello ${buyer.name},`,
        `thank you for your order #${order.id}.`,
        ...items.map(
          (i) =>
            `${i.title}: ${paid(Number(i.priceMinor))}, ${LICENCE_TERMS[i.licenceTier].title.toLowerCase()}${i.upgradedFrom ? ` (an upgrade from the ${LICENCE_TERMS[i.upgradedFrom].title.toLowerCase()})` : ''}`,
        ),
        ...discounted,
        currency.code === DEFAULT_CURRENCY
          ? `Total paid from your balance: ${eur(total)} (${DEFAULT_CURRENCY}).`
          : `Total paid from your balance: ${paid(total)} (${eur(total)} in ${DEFAULT_CURRENCY}, your balance's currency).`,
        // Issue 33: the VAT carved out of the price, and both documents (the credit note exists once an item is refunded).
        ...(Number(order.vatMinor) > 0
          ? [`Of which VAT ${order.taxRateBp / 100} % (${order.taxCountry}): ${eur(Number(order.vatMinor))}; net ${eur(total - Number(order.vatMinor))}.`]
          : []),
        ...(order.reverseCharge ? [`Reverse charge: no VAT was charged; VAT number ${order.buyerVatNumber}.`] : []),
        ...(order.invoiceNumber
          ? [
              `Your invoice ${order.invoiceNumber}: ${app.config.publicUrl}/api/orders/${order.id}/invoice.pdf`,
              `If an item is refunded, its credit note: ${app.config.publicUrl}/api/orders/${order.id}/credit-note.pdf`,
            ]
          : []),
        licenceNote(app.config.publicUrl),
        `Your files are in your order history: ${link}`,
      ];
      await sendMail(app.db, {
        to: buyer.email,
        subject: `Your Atelier order #${order.id}`,
        text: lines.join('\n\n'),
        html: mailHtml(lines, { label: 'Open my orders', url: link }),
      });
    }
    const sellerIds = [...new Set(items.map((i) => i.sellerId))].filter((id) => id !== order.buyerId);
    if (!sellerIds.length) return;
    const sellers = await app.db.select().from(users).where(inArray(users.id, sellerIds));
    for (const seller of sellers) {
      // A creator who turned sale e-mails off (notification preferences) is told by the bell alone.
      if (seller.deletedAt || !(await wantsNotice(app.db, seller.id, 'sale_made', 'email'))) continue;
      const sold = items.filter((i) => i.sellerId === seller.id);
      const lines = [
        `Hello ${seller.name},`,
        'you made a sale on Atelier:',
        ...sold.map((i) => `${i.title}: ${eur(Number(i.priceMinor))}`),
        ...(discounted.length ? ['Your share is computed on the discounted price.', ...discounted] : []),
        'Your share is in your pending earnings, and becomes available to spend or withdraw after the clearing period. See it under Earnings on your dashboard.',
      ];
      await sendMail(app.db, { to: seller.email, subject: 'You made a sale', text: lines.join('\n\n'), html: mailHtml(lines) });
    }
  } catch (err) {
    app.log.error({ err: { message: (err as Error).message }, orderId }, 'order receipt failed');
  }
}
