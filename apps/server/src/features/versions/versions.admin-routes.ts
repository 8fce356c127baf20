import { adminProductVersion, adminVersionsQuery, okEnvelope, productVersion, rejectVersionInput, versionIdParams } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { productVersions, users } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { mailHtml, sendMail } from '../../lib/mail';
import { sendStoredFile } from '../../lib/storage';
import { recordAudit } from '../audit';
import { listVersionsForStaff, lockVersionForReview, publishVersion, toVersion, type VersionRow } from './versions.queries';

/** Tells the creator what staff decided about their version. */
async function mailCreator(tx: Db, authorId: number, title: string, version: VersionRow, publicUrl: string) {
  const [creator] = await tx.select({ email: users.email, name: users.name, deletedAt: users.deletedAt }).from(users).where(eq(users.id, authorId));
  if (!creator || creator.deletedAt) return;
  const lines =
    version.status === 'published'
      ? [`Hello ${creator.name},`, `version ${version.number} of “${title}” was approved and is published: your buyers are being told.`]
      : [
          `Hello ${creator.name},`,
          `version ${version.number} of “${title}” was not approved.`,
          `Reason: ${version.reviewNote ?? ''}`,
          'Your buyers keep the current version.',
        ];
  const link = `${publicUrl}/dashboard/projects`;
  await sendMail(tx, {
    to: creator.email,
    subject: `Your new version of “${title.slice(0, 80)}”: ${version.status === 'published' ? 'approved' : 'not approved'}`,
    text: [...lines, link].join('\n\n'),
    html: mailHtml(lines, { label: 'Open my projects', url: link }),
  });
}

/** Staff review of versions whose file changed type (issue 34), under /api/admin. Every route declares guard('admin'). */
export const versionsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/versions',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminVersionsQuery, response: { 200: okEnvelope(z.array(adminProductVersion)) } } },
    async (request) => {
      const rows = await listVersionsForStaff(app.db, request.query.status);
      return ok(
        rows.map((r) => ({
          ...toVersion(r.version, true),
          product: r.product,
          creator: r.creator,
          current_type: r.currentType,
          new_type: r.version.fileType ?? '',
          file_url: `/api/admin/versions/${r.version.id}/file`,
        })),
      );
    },
  );

  /** The version's file, for staff only (the creator's upload stays private until published). */
  app.get('/versions/:id/file', { config: guard('admin'), schema: { tags: ['admin'], params: versionIdParams } }, async (request, reply) => {
    const [row] = await app.db.select().from(productVersions).where(eq(productVersions.id, request.params.id));
    if (!row?.originalPath) throw notFound('This version does not exist.');
    return sendStoredFile(reply, app.storage, row.originalPath, { visibility: 'private', disposition: 'attachment', filename: row.originalName ?? undefined });
  });

  app.post(
    '/versions/:id/approve',
    { config: guard('admin'), schema: { tags: ['admin'], params: versionIdParams, response: { 200: okEnvelope(productVersion) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const { product, version } = await lockVersionForReview(tx, request.params.id);
        const published = await publishVersion(tx, product, version, staffId);
        await recordAudit(tx, {
          staffId,
          action: 'version.approve',
          subjectType: 'product',
          subjectId: product.id,
          before: { version_id: version.id, status: version.status, product_type: product.productType },
          after: { version_id: version.id, status: published.status },
        });
        await mailCreator(tx, product.authorId, product.title, published, app.config.publicUrl);
        return published;
      });
      request.log.info({ versionId: row.id, by: staffId }, 'version approved by staff');
      return ok(toVersion(row, true), 'The version is published; its buyers are being told.');
    },
  );

  app.post(
    '/versions/:id/reject',
    { config: guard('admin'), schema: { tags: ['admin'], params: versionIdParams, body: rejectVersionInput, response: { 200: okEnvelope(productVersion) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const { product, version } = await lockVersionForReview(tx, request.params.id);
        const [rejected] = await tx
          .update(productVersions)
          .set({ status: 'rejected', reviewNote: request.body.reason, reviewedBy: staffId })
          .where(eq(productVersions.id, version.id))
          .returning();
        await recordAudit(tx, {
          staffId,
          action: 'version.reject',
          subjectType: 'product',
          subjectId: product.id,
          before: { version_id: version.id, status: version.status },
          after: { version_id: version.id, status: 'rejected', reason: request.body.reason },
        });
        await mailCreator(tx, product.authorId, product.title, rejected!, app.config.publicUrl);
        return rejected!;
      });
      request.log.info({ versionId: row.id, by: staffId }, 'version rejected by staff');
      return ok(toVersion(row, true), 'The version is rejected; the creator is told why.');
    },
  );
};
