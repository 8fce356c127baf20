import {
  adminIdParams,
  adminMessagesQuery,
  adminSettings,
  adminSettingsUpdate,
  contactMessageView,
  messageHandledInput,
  messageReplyInput,
  okEnvelope,
} from '@atelier/shared';
import { asc, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { contactMessages, siteSettings } from '../../db/schema';
import { notFound, validationError } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { enqueue } from '../../lib/jobs';
import { sendMail } from '../../lib/mail';
import { readSettings } from '../../lib/settings';
import { recordAudit } from '../audit';
import { EARNINGS_RELEASE } from '../earnings';
import { getCommerceSettings } from '../ledger';

type MessageRow = typeof contactMessages.$inferSelect;
const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
const toView = (m: MessageRow) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  message: m.message,
  user_id: m.userId,
  created_at: seconds(m.createdAt)!,
  handled_at: seconds(m.handledAt),
});

async function lockMessage(tx: Db, id: number): Promise<MessageRow> {
  const [row] = await tx.select().from(contactMessages).where(eq(contactMessages.id, id)).for('update');
  if (!row) throw notFound('This message does not exist.');
  return row;
}

async function currentSettings(db: Db) {
  const [site, commerce] = await Promise.all([readSettings(db), getCommerceSettings(db)]);
  return {
    is_reg_enabled: site.is_reg_enabled,
    is_email_verification_enabled: site.is_email_verification_enabled,
    internal_currency_name: site.internal_currency_name,
    support_email: site.support_email,
    copyright: site.copyright,
    ...commerce,
  };
}

/** Contact-form messages for staff, under /api/admin: read, mark handled, reply by e-mail (through the outbox). */
export const siteAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(adminSettings) } } }, async () =>
    ok(await currentSettings(app.db)),
  );

  /**
   * Changes the named settings in one transaction with their audit row. Every app server drops its
   * settings cache when the commit's change notice arrives (the site_settings trigger).
   */
  app.patch(
    '/settings',
    { config: { ...guard('admin'), stepUp: true }, schema: { tags: ['admin'], body: adminSettingsUpdate, response: { 200: okEnvelope(adminSettings) } } },
    async (request) => {
      const staffId = request.user!.id;
      const changes = Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined));
      const after = await app.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('site_settings'))`);
        const before = await currentSettings(tx);
        const next = { ...before, ...changes };
        if (next.deposit_min > next.deposit_max) throw validationError({ deposit_min: 'The smallest deposit may not be above the largest.' });
        for (const [key, value] of Object.entries(changes)) {
          await tx
            .insert(siteSettings)
            .values({ key, value })
            .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedAt: new Date() } });
        }
        const changedBefore = Object.fromEntries(Object.keys(changes).map((k) => [k, before[k as keyof typeof before]]));
        // A new clearing period applies to the lines still pending at once: a release run starts now (0 releases them all).
        if (changes.earnings_clearing_days !== undefined && changes.earnings_clearing_days !== before.earnings_clearing_days) {
          await enqueue(tx, EARNINGS_RELEASE, {}, { singletonKey: 'clearing-change' });
        }
        await recordAudit(tx, { staffId, action: 'settings.update', subjectType: 'settings', subjectId: 0, before: changedBefore, after: changes });
        return currentSettings(tx);
      });
      app.settings.clear();
      request.log.info({ keys: Object.keys(changes), by: staffId }, 'settings changed by staff');
      return ok(after, 'The settings are saved.');
    },
  );

  app.get(
    '/messages',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminMessagesQuery, response: { 200: okEnvelope(z.array(contactMessageView)) } } },
    async (request) => {
      const { status } = request.query;
      const rows = await app.db
        .select()
        .from(contactMessages)
        .where(status === 'open' ? isNull(contactMessages.handledAt) : status === 'handled' ? isNotNull(contactMessages.handledAt) : undefined)
        // Open messages oldest first (the queue); handled ones newest first.
        .orderBy(status === 'open' ? asc(contactMessages.id) : desc(contactMessages.id))
        .limit(500);
      return ok(rows.map(toView));
    },
  );

  app.post(
    '/messages/:id/handled',
    {
      config: guard('admin'),
      schema: { tags: ['admin'], params: adminIdParams, body: messageHandledInput, response: { 200: okEnvelope(contactMessageView) } },
    },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const before = await lockMessage(tx, request.params.id);
        const [after] = await tx
          .update(contactMessages)
          .set({ handledAt: request.body.handled ? (before.handledAt ?? new Date()) : null })
          .where(eq(contactMessages.id, before.id))
          .returning();
        await recordAudit(tx, {
          staffId,
          action: request.body.handled ? 'contact_message.handled' : 'contact_message.reopened',
          subjectType: 'contact_message',
          subjectId: before.id,
          before: { handled: before.handledAt !== null },
          after: { handled: after!.handledAt !== null },
        });
        return after!;
      });
      return ok(toView(row), request.body.handled ? 'The message is handled.' : 'The message is open again.');
    },
  );

  app.post(
    '/messages/:id/reply',
    { config: guard('admin'), schema: { tags: ['admin'], params: adminIdParams, body: messageReplyInput, response: { 200: okEnvelope(contactMessageView) } } },
    async (request) => {
      const staffId = request.user!.id;
      const { subject, text } = request.body;
      const row = await app.db.transaction(async (tx) => {
        const before = await lockMessage(tx, request.params.id);
        // The reply quotes the sender's message, as a mail client would.
        const quoted = before.message
          .split('\n')
          .map((line) => `> ${line}`)
          .join('\n');
        await sendMail(tx, { to: before.email, subject, text: `${text}\n\n${quoted}\n` });
        const [after] = await tx
          .update(contactMessages)
          .set({ handledAt: before.handledAt ?? new Date() })
          .where(eq(contactMessages.id, before.id))
          .returning();
        await recordAudit(tx, {
          staffId,
          action: 'contact_message.reply',
          subjectType: 'contact_message',
          subjectId: before.id,
          before: { handled: before.handledAt !== null },
          after: { handled: true, subject, reply: text },
        });
        return after!;
      });
      request.log.info({ messageId: row.id, by: staffId }, 'contact message answered');
      return ok(toView(row), 'The reply is sent.');
    },
  );
};
