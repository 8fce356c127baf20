import {
  markNotificationsReadInput,
  markNotificationsReadResult,
  NOTIFICATIONS_PAGE_SIZE,
  notificationPreferences,
  notificationSettings,
  notificationsPage,
  notificationsQuery,
  okEnvelope,
  unreadCounts,
} from '@atelier/shared';
import { and, count, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { chatMessages, chats, sessions, users } from '../../db/schema';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { createEventHub } from './event-hub';
import { listNotifications, markNotificationsRead, notificationsAfter, unreadNotificationCount } from './notifications';
import { readPreferences, savePreferences } from './preferences';

/** A comment line keeps proxies from closing an idle stream; the session is checked at the same beat. */
export const EVENTS_HEARTBEAT_MS = 25_000;
/** How soon a client reconnects after a stream this server ends (shutdown). */
export const EVENTS_RECONNECT_MS = 1000;
/** Streams one session may hold open; a new one beyond this ends the session's oldest. */
export const EVENTS_PER_SESSION = 10;

/** Sessions checked (and users marked seen) per statement at a heartbeat. */
const BEAT_BATCH = 1000;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Unread chat messages addressed to the user, over all their chats. */
async function unreadChatMessages(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chatMessages)
    .innerJoin(chats, eq(chats.id, chatMessages.chatId))
    .where(and(or(eq(chats.senderId, userId), eq(chats.recipientId, userId)), ne(chatMessages.userId, userId), isNull(chatMessages.readAt)));
  return Number(row?.n ?? 0);
}

export const notificationsRoutes: FastifyPluginAsyncZod<{ heartbeatMs?: number }> = async (app, opts) => {
  const hub = await createEventHub(app.database, app.log);
  type Stream = { userId: number; sessionId: string | undefined; write: (text: string) => void; end: (reconnectMs?: number) => void };
  /** Open streams, oldest first. */
  const streams = new Set<Stream>();
  /** The same streams by session, oldest first (the per-session cap looks here, not over every stream). */
  const bySession = new Map<string | undefined, Set<Stream>>();
  const heartbeatMs = opts.heartbeatMs ?? EVENTS_HEARTBEAT_MS;
  /**
   * One beat for every stream of this server (not a timer and two queries per stream: with 5,000
   * streams that was 10,000 statements in a burst every 25 s): a comment line to each, then one
   * query for which of their sessions still exist and one update of their users' last_seen_at.
   */
  let beating = false;
  const beat = setInterval(async () => {
    if (beating || streams.size === 0) return;
    beating = true;
    try {
      const open = [...streams];
      for (const s of open) s.write(': ping\n\n');
      const sessionIds = [...new Set(open.map((s) => s.sessionId).filter((id): id is string => id !== undefined))];
      const alive = new Set<string>();
      for (const chunk of chunks(sessionIds, BEAT_BATCH)) {
        for (const row of await app.db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, chunk))) alive.add(row.id);
      }
      for (const s of open) if (s.sessionId === undefined || !alive.has(s.sessionId)) s.end();
      const userIds = [...new Set(open.filter((s) => s.sessionId !== undefined && alive.has(s.sessionId)).map((s) => s.userId))];
      for (const chunk of chunks(userIds, BEAT_BATCH)) {
        await app.db
          .update(users)
          .set({ lastSeenAt: sql`now()` })
          .where(and(inArray(users.id, chunk), sql`(${users.lastSeenAt} is null or ${users.lastSeenAt} < now() - interval '1 minute')`));
      }
    } catch {
      // A failed check leaves the streams open; the next beat tries again.
    } finally {
      beating = false;
    }
  }, heartbeatMs);
  beat.unref();
  app.addHook('onClose', async () => clearInterval(beat));
  // At the start of a shutdown every stream ends with a short retry, so its client reconnects to
  // another server while this one drains; any left end before the server stops, the LISTEN after.
  app.lifecycle.onDrain(() => {
    for (const s of [...streams]) s.end(EVENTS_RECONNECT_MS);
  });
  app.addHook('preClose', async () => {
    for (const s of [...streams]) s.end(EVENTS_RECONNECT_MS);
  });
  app.addHook('onClose', () => hub.close());
  const tags = ['notifications'];
  /** A signed-in user's stream; `stream`: a long-lived answer, counted as a live connection, not a request in flight. */
  const eventsConfig = { ...guard('user'), renewCookies: false, stream: true };

  // What the user is told by e-mail: the weekly digest of followed creators' new works (features/follows).
  const settingsAnswer = okEnvelope(notificationSettings);
  app.get('/notifications/settings', { config: guard('user'), schema: { tags, response: { 200: settingsAnswer } } }, async (request) => {
    const [row] = await app.db
      .select({ weekly: users.weeklyDigest })
      .from(users)
      .where(eq(users.id, currentUser(request).id));
    return ok({ weekly_digest: row?.weekly ?? true });
  });
  app.put(
    '/notifications/settings',
    { config: guard('user'), schema: { tags, body: notificationSettings, response: { 200: settingsAnswer } } },
    async (request) => {
      const weekly = request.body.weekly_digest;
      await app.db
        .update(users)
        .set({ weeklyDigest: weekly })
        .where(eq(users.id, currentUser(request).id));
      return ok({ weekly_digest: weekly }, weekly ? 'You will get the weekly digest.' : 'The weekly digest is off.');
    },
  );

  // Per kind, whether the bell rings and an e-mail goes out (issue 31): each user reads and writes only their own.
  const preferencesAnswer = okEnvelope(notificationPreferences);
  app.get('/user/notification-preferences', { config: guard('user'), schema: { tags, response: { 200: preferencesAnswer } } }, async (request) =>
    ok({ preferences: await readPreferences(app.db, currentUser(request).id) }),
  );
  app.put(
    '/user/notification-preferences',
    { config: guard('user'), schema: { tags, body: notificationPreferences, response: { 200: preferencesAnswer } } },
    async (request) => {
      const userId = currentUser(request).id;
      await savePreferences(app.db, userId, request.body.preferences);
      return ok({ preferences: await readPreferences(app.db, userId) }, 'Your notification preferences are saved.');
    },
  );

  /** SPEC has no call for the bell: GET /notifications (paged, newest first) and POST /notifications/read. */
  app.get(
    '/notifications',
    { config: guard('user'), schema: { tags, querystring: notificationsQuery, response: { 200: notificationsPage } } },
    async (request) => {
      const userId = currentUser(request).id;
      const { page } = request.query;
      const { items, hasMore } = await listNotifications(app.db, userId, page, NOTIFICATIONS_PAGE_SIZE);
      return {
        status: 'OK' as const,
        payload: items,
        meta: {
          unread_count: await unreadNotificationCount(app.db, userId),
          next: hasMore ? `/api/notifications?page=${page + 1}` : null,
        },
      };
    },
  );

  app.post(
    '/notifications/read',
    {
      config: guard('user'),
      schema: { tags, body: markNotificationsReadInput, response: { 200: okEnvelope(markNotificationsReadResult) } },
    },
    async (request) => {
      const userId = currentUser(request).id;
      const marked = await markNotificationsRead(app.db, userId, request.body.ids);
      return ok({ marked, unread_count: await unreadNotificationCount(app.db, userId) });
    },
  );

  app.get('/notifications/unread-count', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(unreadCounts) } } }, async (request) => {
    const userId = currentUser(request).id;
    return ok({ notifications: await unreadNotificationCount(app.db, userId), chat_messages: await unreadChatMessages(app.db, userId) });
  });

  /**
   * Server-Sent Events for the signed-in user: `event: <kind>` with `{kind, chatId, notificationId}`;
   * the client refetches what the event names. Events tied to a notification carry its id, so a
   * reconnect with Last-Event-ID replays what was missed. Ends when the session does (logout).
   */
  const eventStream = {
    description: 'A Server-Sent Events stream: `id`, `event: <kind>` and `data: {kind, chatId, notificationId}` per event.',
    content: { 'text/event-stream': { schema: z.string() } },
  };
  const eventsSchema = { tags, summary: "Follow the signed-in user's live events (Server-Sent Events)", response: { 200: eventStream } };
  app.get('/events', { config: eventsConfig, compress: false, schema: eventsSchema }, async (request, reply) => {
    const userId = currentUser(request).id;
    const sessionId = request.session?.id;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // A server already shutting down sends the client elsewhere at once.
    if (app.lifecycle.draining) {
      res.end(`retry: ${EVENTS_RECONNECT_MS}\n\n`);
      return;
    }
    res.write(`retry: 5000\n\n`);
    /** Still signed in? (The session row is gone once it is signed out, revoked or expired.) */
    const sessionAlive = async () =>
      sessionId ? (await app.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, sessionId)).limit(1)).length === 1 : false;
    const write = (signal: { kind: string; chatId: number | null; notificationId: number | null }) => {
      // Some of the user's sessions were signed out (issue 21): a stream of one of them says so and ends at once.
      if (signal.kind === 'session_revoked') {
        void sessionAlive()
          .then((alive) => {
            if (alive || ended) return;
            res.write(`event: session_revoked\ndata: ${JSON.stringify({ kind: signal.kind, chatId: null, notificationId: null })}\n\n`);
            end();
          })
          .catch(() => undefined);
        return;
      }
      const data = JSON.stringify({ kind: signal.kind, chatId: signal.chatId, notificationId: signal.notificationId });
      res.write(`${signal.notificationId ? `id: ${signal.notificationId}\n` : ''}event: ${signal.kind}\ndata: ${data}\n\n`);
      // Staff blocked the account (issue 18 bug 3): the stream says so and ends at once.
      if (signal.kind === 'account_blocked') end();
    };
    let ended = false;
    const unsubscribe = hub.subscribe(userId, write);
    const sseClosed = app.metrics.sseOpened();
    const end = (reconnectMs?: number) => {
      if (ended) return;
      ended = true;
      unsubscribe();
      sseClosed();
      streams.delete(stream);
      const mine = bySession.get(sessionId);
      mine?.delete(stream);
      if (mine?.size === 0) bySession.delete(sessionId);
      res.end(reconnectMs ? `retry: ${reconnectMs}\n\n` : undefined);
    };
    const stream: Stream = { userId, sessionId, write: (text) => res.write(text), end };
    // One session holds at most EVENTS_PER_SESSION streams on this server: the oldest make way.
    const mine = bySession.get(sessionId) ?? new Set<Stream>();
    for (const old of [...mine].slice(0, Math.max(0, mine.size - EVENTS_PER_SESSION + 1))) old.end();
    mine.add(stream);
    bySession.set(sessionId, mine);
    streams.add(stream);
    request.raw.on('close', () => end());
    const lastId = Number(request.headers['last-event-id']);
    if (Number.isSafeInteger(lastId) && lastId > 0) {
      for (const row of await notificationsAfter(app.db, userId, lastId)) write({ kind: row.kind, chatId: row.chatId, notificationId: row.id });
    }
    write({ kind: 'ready', chatId: null, notificationId: null });
  });
};
