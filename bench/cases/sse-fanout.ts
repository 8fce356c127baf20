import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { openDatabase } from '../../apps/server/src/db/client';
import { runMigrations } from '../../apps/server/src/db/migrate';
import { chats, sessions, users } from '../../apps/server/src/db/schema';
import { seedDatabase } from '../../apps/server/src/seeders';
import { percentile } from '../http-load';
import type { BenchCase } from '../run';
import { createScratchDatabase } from '../scratch-db';

const LISTENERS = Number(process.env.BENCH_SSE_CLIENTS ?? 500);
/** Each sender writes to its own listeners; 30 sends a minute per user is the chat's rate limit. */
const SENDERS = 25;
const SENDS = 100;
const TARGET_P95_MS = 250;

type Who = { id: number; cookie: string; csrf: string };

/** A signed-in session written straight into the table (500 sign-ins would meet the login rate limit). */
function sessionRow(userId: number) {
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('base64url');
  const now = new Date();
  return {
    row: { id: createHash('sha256').update(token).digest('hex'), userId, csrfToken: csrf, lastSeenAt: now, expiresAt: new Date(now.getTime() + 86_400_000) },
    cookie: `atelier_session=${token}; XSRF-TOKEN=${csrf}`,
    csrf,
  };
}

/** One SSE client: resolves `ready` once the stream said so; `waitFor(chatId)` for the next event about a chat. */
function openStream(port: number, cookie: string) {
  const waiters = new Map<number, (at: number) => void>();
  let resolveReady!: () => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<void>((ok, fail) => {
    resolveReady = ok;
    rejectReady = fail;
  });
  let buffer = '';
  const req = http.get({ host: '127.0.0.1', port, path: '/api/events', agent: false, headers: { cookie } }, (res) => {
    if (res.statusCode !== 200) return rejectReady(new Error(`events answered ${res.statusCode}`));
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      const at = performance.now();
      buffer += chunk;
      let cut = buffer.indexOf('\n\n');
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf('\n\n');
        const data = block.split('\n').find((l) => l.startsWith('data:'));
        if (!data) continue;
        const event = JSON.parse(data.slice(5)) as { kind: string; chatId: number | null };
        if (event.kind === 'ready') resolveReady();
        else if (event.kind === 'new_message' && event.chatId !== null) {
          waiters.get(event.chatId)?.(at);
          waiters.delete(event.chatId);
        }
      }
    });
  });
  req.on('error', (err) => rejectReady(err));
  return {
    ready,
    waitFor: (chatId: number) => new Promise<number>((ok) => waiters.set(chatId, ok)),
    close: () => req.destroy(),
  };
}

async function send(port: number, from: Who, chatId: number, text: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/api/chat/${chatId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: from.cookie, 'x-xsrf-token': from.csrf },
    body: JSON.stringify({ message: text }),
  });
  if (res.status !== 200) throw new Error(`send answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/**
 * Live fan-out over Server-Sent Events on PostgreSQL (LISTEN/NOTIFY, a scratch database): 500
 * signed-in users hold GET /api/events open on one app instance while senders write chat messages to
 * them one at a time. Value: p95 from the send to the event arriving at its reader's stream. Baseline:
 * p95 of the same send answered with no stream open. Target: delivery p95 under 250 ms.
 */
export const sseFanout: BenchCase = {
  name: `SSE fan-out (PostgreSQL, ${LISTENERS} connected clients): send → event p95 vs the send alone`,
  async run() {
    const scratch = await createScratchDatabase();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-bench-'));
    const config = loadConfig({
      NODE_ENV: 'production',
      // The bench pays with the sandbox on purpose (a production start must say so).
      PAYMENT_PROVIDER: 'sandbox',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      LOG_LEVEL: 'silent',
      SESSION_SECRET: 's'.repeat(40),
      WEB_DIST: path.join(dataDir, 'none'),
    });
    const database = await openDatabase({ url: scratch.url, pgliteDir: '' });
    let app: Awaited<ReturnType<typeof buildApp>> | null = null;
    const streams: ReturnType<typeof openStream>[] = [];
    try {
      await runMigrations(database);
      app = await buildApp({ config, database, logger: false });
      const db = app.db;
      await seedDatabase(db, app.storage, { demo: false, imageSize: 'small' });
      const person = (kind: string, i: number) => ({
        email: `bench-${kind}-${i}@example.com`,
        passwordHash: 'not-a-password',
        name: kind === 'sender' ? 'Sender' : 'Reader',
        surname: `Bench ${i}`,
        nickname: `bench_${kind}_${i}`,
        emailVerifiedAt: new Date(),
      });
      const senderRows = await db
        .insert(users)
        .values(Array.from({ length: SENDERS }, (_, i) => person('sender', i)))
        .returning({ id: users.id });
      const readerRows = await db
        .insert(users)
        .values(Array.from({ length: LISTENERS }, (_, i) => person('reader', i)))
        .returning({ id: users.id });
      const signIn = async (ids: { id: number }[]): Promise<Who[]> => {
        const made = ids.map((u) => ({ id: u.id, ...sessionRow(u.id) }));
        await db.insert(sessions).values(made.map((m) => m.row));
        return made.map((m) => ({ id: m.id, cookie: m.cookie, csrf: m.csrf }));
      };
      const senders = await signIn(senderRows);
      const readers = await signIn(readerRows);
      // Reader i talks with sender i % SENDERS.
      const chatRows = await db
        .insert(chats)
        .values(readers.map((r, i) => ({ senderId: senders[i % SENDERS]!.id, recipientId: r.id })))
        .returning({ id: chats.id, recipientId: chats.recipientId });
      const chatOf = new Map(chatRows.map((c) => [c.recipientId, c.id]));

      await app.listen({ host: '127.0.0.1', port: 0 });
      const port = (app.server.address() as AddressInfo).port;
      // The readers measured: spread over all of them; each sender writes about 9 messages in all (limit 30 a minute).
      const picks = Array.from({ length: SENDS }, (_, k) => (k * 7) % LISTENERS);
      const warm = picks.slice(0, 10);

      // Baseline: the same sends with no stream open.
      for (const i of warm) await send(port, senders[i % SENDERS]!, chatOf.get(readers[i]!.id)!, 'warm-up');
      const alone: number[] = [];
      for (const i of picks) {
        const t0 = performance.now();
        await send(port, senders[i % SENDERS]!, chatOf.get(readers[i]!.id)!, 'baseline');
        alone.push(performance.now() - t0);
      }

      // Target: every reader connected; each send timed until its reader's stream has the event.
      for (const r of readers) streams.push(openStream(port, r.cookie));
      await Promise.all(streams.map((s) => s.ready));
      const delivered: number[] = [];
      for (const i of picks) {
        const chatId = chatOf.get(readers[i]!.id)!;
        const arrived = streams[i]!.waitFor(chatId);
        const t0 = performance.now();
        await send(port, senders[i % SENDERS]!, chatId, 'live');
        delivered.push((await arrived) - t0);
      }

      const value = percentile(delivered, 95);
      const baseline = percentile(alone, 95);
      const ratio = value / baseline;
      console.log(
        `  ${streams.length} streams open; send alone p50 ${percentile(alone, 50).toFixed(1)} ms, p95 ${baseline.toFixed(1)} ms; ` +
          `send → event p50 ${percentile(delivered, 50).toFixed(1)} ms, p95 ${value.toFixed(1)} ms (ratio ${ratio.toFixed(2)})`,
      );
      return {
        name: 'SSE fan-out',
        value,
        baseline,
        unit: 'ms',
        ratio,
        target: `p95 < ${TARGET_P95_MS} ms`,
        pass: value < TARGET_P95_MS,
      };
    } finally {
      for (const s of streams) s.close();
      if (app) await app.close();
      await database.close();
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
