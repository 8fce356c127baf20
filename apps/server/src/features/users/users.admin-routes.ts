import { type AdminUser, adminBlockInput, adminIdParams, adminRoleInput, adminUser, adminUserDetail, adminUsersQuery, okEnvelope } from '@atelier/shared';
import { asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { offers, orders, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { mailHtml, sendMail } from '../../lib/mail';
import { endSessionsForBlock, forgetBlockNotices } from '../../lib/session';
import { recordAudit } from '../audit';
import { balanceOf, userJournal } from '../ledger';
import { publishEvent } from '../notifications';
import type { UserRow } from './users.queries';

const toAdminUser = (u: UserRow): AdminUser => ({
  id: u.id,
  email: u.email,
  nickname: u.nickname,
  name: u.name,
  surname: u.surname,
  role: u.role,
  blocked: u.blockedAt !== null,
  disputed: u.disputedAt !== null,
  deleted: u.deletedAt !== null,
  created_at: Math.floor(u.createdAt.getTime() / 1000),
});

/** The user row locked for a staff change, or 404. */
async function lockUser(tx: Db, id: number): Promise<UserRow> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  if (!row) throw notFound('This user does not exist.');
  return row;
}

/** Tells the user their account is blocked, why, and how to reach support (delivered after commit). */
async function sendBlockMail(db: Db, publicUrl: string, supportEmail: string, user: UserRow, reason: string) {
  const contactUrl = `${publicUrl}/contact`;
  const reach = supportEmail ? `write to ${supportEmail} or use the contact page` : 'use the contact page';
  await sendMail(db, {
    to: user.email,
    subject: 'Your Atelier account is blocked',
    text: `Hello ${user.name},\n\nOur team has blocked your Atelier account. You cannot sign in while it is blocked.\n\nReason: ${reason}\n\nIf you think this is a mistake, ${reach}:\n${contactUrl}`,
    html: mailHtml(
      [
        `Hello ${user.name},`,
        'Our team has blocked your Atelier account. You cannot sign in while it is blocked.',
        `Reason: ${reason}`,
        `If you think this is a mistake, ${reach}.`,
      ],
      {
        label: 'Contact support',
        url: contactUrl,
      },
    ),
  });
}

/** Staff calls on accounts, under /api/admin: search, one user's money and history, block, staff role. */
export const usersAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: adminUsersQuery, response: { 200: okEnvelope(z.array(adminUser)) } } },
    async (request) => {
      const { q, limit } = request.query;
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const asId = /^\d{1,15}$/.test(q) ? Number(q) : null;
      const rows = await app.db
        .select()
        .from(users)
        .where(
          q
            ? or(
                ilike(users.email, like),
                ilike(users.nickname, like),
                ilike(sql`${users.name} || ' ' || ${users.surname}`, like),
                asId ? eq(users.id, asId) : undefined,
              )
            : undefined,
        )
        .orderBy(desc(users.id))
        .limit(limit);
      return ok(rows.map(toAdminUser));
    },
  );

  app.get(
    '/users/:id',
    { config: guard('admin'), schema: { tags: ['admin'], params: adminIdParams, response: { 200: okEnvelope(adminUserDetail) } } },
    async (request) => {
      const [user] = await app.db.select().from(users).where(eq(users.id, request.params.id));
      if (!user) throw notFound('This user does not exist.');
      const [orderRows, offerRows, balance, journal] = await Promise.all([
        app.db.select().from(orders).where(eq(orders.buyerId, user.id)).orderBy(desc(orders.id)).limit(100),
        app.db.select().from(offers).where(eq(offers.userId, user.id)).orderBy(asc(offers.id)).limit(100),
        balanceOf(app.db, user.id),
        userJournal(app.db, user.id),
      ]);
      return ok({
        user: toAdminUser(user),
        balance_minor: balance,
        orders: orderRows.map((o) => ({
          id: o.id,
          title: o.title,
          amount_minor: o.amountMinor,
          status: o.status,
          created_at: Math.floor(o.createdAt.getTime() / 1000),
        })),
        offers: offerRows.map((o) => ({
          id: o.id,
          title: o.title,
          status: o.status,
          user_price_minor: o.userPriceMinor,
          service_price_minor: o.servicePriceMinor,
          created_at: Math.floor(o.createdAt.getTime() / 1000),
        })),
        journal,
      });
    },
  );

  /**
   * Blocks an account, with the reason staff confirmed (issue 18 bug 3): every session of it ends at
   * once (its next guarded call is a 403 saying the account is blocked), its live stream is told and
   * closed, sign-in is refused, and the user gets an e-mail with the reason and how to reach support.
   */
  app.post(
    '/users/:id/block',
    {
      config: guard('admin'),
      schema: { tags: ['admin'], params: adminIdParams, body: adminBlockInput, response: { 200: okEnvelope(adminUser) } },
    },
    async (request) => {
      const staffId = request.user!.id;
      const { reason } = request.body;
      if (request.params.id === staffId) throw new AppError('CONFLICT', 'You cannot block your own account.');
      const supportEmail = (await app.settings.get()).support_email;
      const row = await app.db.transaction(async (tx) => {
        const before = await lockUser(tx, request.params.id);
        const [after] = await tx
          .update(users)
          .set({ blockedAt: before.blockedAt ?? new Date(), updatedAt: new Date() })
          .where(eq(users.id, before.id))
          .returning();
        await endSessionsForBlock(tx, before.id);
        await recordAudit(tx, {
          staffId,
          action: 'user.block',
          subjectType: 'user',
          subjectId: before.id,
          before: { blocked: before.blockedAt !== null },
          after: { blocked: true, reason },
        });
        if (before.blockedAt === null) await sendBlockMail(tx, app.config.publicUrl, supportEmail, before, reason);
        // NOTIFY goes out on commit: the user's open streams, on every server, end now.
        await publishEvent(tx, { userId: before.id, kind: 'account_blocked', chatId: null, notificationId: null });
        return after!;
      });
      request.log.info({ userId: row.id, by: staffId }, 'user blocked by staff');
      return ok(toAdminUser(row), 'The user is blocked and signed out everywhere.');
    },
  );

  app.post(
    '/users/:id/unblock',
    { config: guard('admin'), schema: { tags: ['admin'], params: adminIdParams, response: { 200: okEnvelope(adminUser) } } },
    async (request) => {
      const staffId = request.user!.id;
      const row = await app.db.transaction(async (tx) => {
        const before = await lockUser(tx, request.params.id);
        const [after] = await tx.update(users).set({ blockedAt: null, updatedAt: new Date() }).where(eq(users.id, before.id)).returning();
        await forgetBlockNotices(tx, before.id);
        await recordAudit(tx, {
          staffId,
          action: 'user.unblock',
          subjectType: 'user',
          subjectId: before.id,
          before: { blocked: before.blockedAt !== null },
          after: { blocked: false },
        });
        return after!;
      });
      request.log.info({ userId: row.id, by: staffId }, 'user unblocked by staff');
      return ok(toAdminUser(row), 'The user is unblocked.');
    },
  );

  /** Grants or revokes the staff role; nobody can revoke their own (the back office would lose its last door). */
  app.post(
    '/users/:id/role',
    {
      config: { ...guard('admin'), stepUp: true },
      schema: { tags: ['admin'], params: adminIdParams, body: adminRoleInput, response: { 200: okEnvelope(adminUser) } },
    },
    async (request) => {
      const staffId = request.user!.id;
      const { role } = request.body;
      if (request.params.id === staffId && role !== 'admin') throw new AppError('CONFLICT', 'You cannot revoke your own staff role.');
      const row = await app.db.transaction(async (tx) => {
        const before = await lockUser(tx, request.params.id);
        if (before.deletedAt) throw new AppError('CONFLICT', 'This account is deleted.');
        const [after] = await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, before.id)).returning();
        await recordAudit(tx, {
          staffId,
          action: role === 'admin' ? 'user.grant_staff' : 'user.revoke_staff',
          subjectType: 'user',
          subjectId: before.id,
          before: { role: before.role },
          after: { role },
        });
        return after!;
      });
      request.log.info({ userId: row.id, role, by: staffId }, 'staff role changed');
      return ok(toAdminUser(row), role === 'admin' ? 'The user is now staff.' : 'The staff role is revoked.');
    },
  );
};
