import type { Readable } from 'node:stream';
import { LICENCE_TERMS, type LicenceTier, licencePath } from '@atelier/shared';
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { ZipFile } from 'yazl';
import type { Db } from '../../db/client';
import { orderItems, orders, products, userProducts, users } from '../../db/schema';
import { cleanFileName, contentDisposition } from './download';

/**
 * LICENCE.txt (issue 34): the licence a buyer holds for one work, in words a person can keep with the
 * file: who holds it, for which work, which licence, and the order that sold it (and the upgrade, if any).
 */

export type LicenceHolder = {
  buyerName: string;
  work: string;
  creator: string;
  tier: LicenceTier;
  orderId: number;
  /** The order that upgraded the licence, when it was upgraded. */
  upgradeOrderId: number | null;
  boughtAt: Date;
};

/**
 * The licence of a bought work (or pack): the licence owned now (an upgrade moves it), the buyer, the
 * creator, when the order `orderId` of this buyer sold it (alone, or the pack it names). Null otherwise.
 */
export async function findLicence(db: Db, buyerId: number, orderId: number, productId: number): Promise<LicenceHolder | null> {
  const [row] = await db
    .select({
      name: users.name,
      surname: users.surname,
      work: products.title,
      creator: sql<string>`(select nickname from users a where a.id = ${products.authorId})`,
      owned: userProducts.licenceTier,
      lineTier: sql<LicenceTier>`(select licence_tier from order_items oi where oi.order_id = ${orders.id} and oi.product_id = ${products.id} limit 1)`,
      boughtAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.buyerId))
    .innerJoin(products, eq(products.id, productId))
    .leftJoin(userProducts, and(eq(userProducts.userId, orders.buyerId), eq(userProducts.productId, products.id)))
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.buyerId, buyerId),
        sql`exists (select 1 from order_items oi where oi.order_id = ${orders.id} and (oi.product_id = ${products.id} or oi.pack_id = ${products.id}))`,
      ),
    )
    .limit(1);
  if (!row) return null;
  const [upgrade] = await db
    .select({ orderId: orderItems.orderId })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orders.buyerId, buyerId), eq(orderItems.productId, productId), isNotNull(orderItems.upgradedFrom), isNull(orderItems.refundedAt)))
    .orderBy(desc(orderItems.id))
    .limit(1);
  const tier = row.owned ?? row.lineTier ?? 'commercial';
  return {
    buyerName: `${row.name} ${row.surname}`.trim(),
    work: row.work,
    creator: row.creator,
    tier,
    orderId,
    upgradeOrderId: upgrade && upgrade.orderId !== orderId && tier !== row.lineTier ? upgrade.orderId : null,
    boughtAt: row.boughtAt,
  };
}

/** The text of LICENCE.txt. `siteUrl` makes the licence page's address absolute when known. */
export function licenceText(h: LicenceHolder, siteUrl: string): string {
  const terms = LICENCE_TERMS[h.tier];
  const lines = [
    `${terms.title.toUpperCase()}`,
    '',
    `Licensee: ${h.buyerName}`,
    `Work: ${h.work}`,
    `Creator: ${h.creator}`,
    `Licence: ${terms.title} (${h.tier})`,
    `Order number: ${h.orderId}${h.upgradeOrderId ? ` (upgraded by order number ${h.upgradeOrderId})` : ''}`,
    `Bought on: ${h.boughtAt.toISOString().slice(0, 10)}`,
    '',
    `${terms.summary} This licence is personal to the licensee and may not be transferred.`,
    '',
    'You may:',
    ...terms.permits.map((p) => `- ${p}`),
    '',
    'You may not:',
    ...terms.forbids.map((p) => `- ${p}`),
    '',
    `The full terms: ${siteUrl}${licencePath(h.tier)}`,
    '',
  ];
  return lines.join('\r\n');
}

/**
 * Sends a bought file and its LICENCE.txt as one ZIP, streamed: the file is read from its stream when
 * the archive reaches it (stored, not compressed again: images and PDFs are compressed already).
 */
export function sendWithLicence(
  reply: FastifyReply,
  file: { stream: Readable; size: number; fileName: string },
  licence: string,
  onError: (err: Error) => void,
): FastifyReply {
  const zip = new ZipFile();
  zip.addReadStream(file.stream, file.fileName, { compress: false, size: file.size });
  zip.addBuffer(Buffer.from(licence, 'utf8'), 'LICENCE.txt');
  zip.end();
  zip.outputStream.on('error', onError);
  const stem = file.fileName.replace(/\.[^.]*$/, '');
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition(cleanFileName(stem, 'zip')))
    .header('cache-control', 'private, no-store')
    .send(zip.outputStream);
}
