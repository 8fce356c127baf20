import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { products, productVersionNotices, productVersions, users } from '../../db/schema';
import { mailHtml, sendMail } from '../../lib/mail';
import { notify, wantsNotice } from '../notifications';
import { buyersOf, VERSION_PUBLISHED_JOB } from './versions.queries';

/** Where a buyer downloads their works: Order history. */
const ORDERS_PAGE = '/dashboard/orders';

/**
 * The `versions.notify_buyers` job (after the version's commit): each buyer of the work gets a bell
 * notice and an e-mail (`product_updated`, unless they turned that channel off). A buyer is written to
 * product_version_notices in the transaction of their notice and mail, so a retry after a crash
 * skips whoever was already told, and a buyer is told once per version.
 */
export async function notifyBuyersOfVersion(app: FastifyInstance, versionId: number): Promise<number> {
  const [version] = await app.db
    .select({
      id: productVersions.id,
      number: productVersions.number,
      notes: productVersions.notes,
      status: productVersions.status,
      productId: products.id,
      title: products.title,
      slug: products.slug,
      authorId: products.authorId,
      authorNickname: users.nickname,
    })
    .from(productVersions)
    .innerJoin(products, eq(products.id, productVersions.productId))
    .innerJoin(users, eq(users.id, products.authorId))
    .where(eq(productVersions.id, versionId));
  if (version?.status !== 'published') return 0;
  const buyers = await buyersOf(app.db, version.productId, version.authorId);
  const link = `${app.config.publicUrl}${ORDERS_PAGE}`;
  let told = 0;
  for (const buyer of buyers) {
    await app.db.transaction(async (tx) => {
      const fresh = await tx
        .insert(productVersionNotices)
        .values({ versionId, userId: buyer.id })
        .onConflictDoNothing()
        .returning({ userId: productVersionNotices.userId });
      if (!fresh.length) return;
      told++;
      await notify(tx, {
        userId: buyer.id,
        kind: 'product_updated',
        text: `“${version.title}” by @${version.authorNickname} has a new version (${version.number}).`,
        link: ORDERS_PAGE,
        data: { params: { title: version.title, count: version.number }, product_id: version.productId, version_id: versionId },
      });
      if (!(await wantsNotice(tx, buyer.id, 'product_updated', 'email'))) return;
      const lines = [
        `Hello ${buyer.name},`,
        `@${version.authorNickname} shipped version ${version.number} of “${version.title}”, a work you own.`,
        `What changed: ${version.notes}`,
        `Your download now gives the new file. Find it in your order history: ${link}`,
        'You can turn these e-mails off under Security › Notifications on your dashboard.',
      ];
      await sendMail(tx, {
        to: buyer.email,
        subject: `New version of “${version.title.slice(0, 80)}”`,
        text: lines.join('\n\n'),
        html: mailHtml(lines, { label: 'Open my orders', url: link }),
      });
    });
  }
  return told;
}

export function registerVersionJobs(app: FastifyInstance) {
  app.jobs.register<{ versionId: number }>(VERSION_PUBLISHED_JOB, async ({ versionId }) => {
    const told = await notifyBuyersOfVersion(app, versionId);
    app.log.info({ versionId, told }, 'buyers told of a new version');
  });
}
