import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
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
/** Sends are spread over this long, so at least one heartbeat of every stream (25 s) falls among them. */
const SEND_WINDOW_MS = 32_000;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

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

/** The clients' thread (sse-clients.worker.mjs): opens every stream, and reports each chat event's arrival time. */
function startClients() {
  const worker = new Worker(new URL('./sse-clients.worker.mjs', import.meta.url));
  const waiters = new Map<number, (at: number) => void>();
  let onReply: ((msg: { type: string; open?: number; error?: string }) => void) | null = null;
  worker.on('message', (msg: { type: string; chatId?: number; at?: number; open?: number; error?: string }) => {
    if (msg.type === 'event') {
      waiters.get(msg.chatId!)?.(msg.at!);
      waiters.delete(msg.chatId!);
    } else onReply?.(msg);
  });
  const ask = (msg: unknown) =>
    new Promise<{ type: string; open?: number; error?: string }>((resolve) => {
      onReply = resolve;
      worker.postMessage(msg);
    });
  return {
    async open(port: number, cookies: string[]) {
      const reply = await ask({ type: 'open', port, cookies });
      if (reply.type !== 'ready') throw new Error(`the clients could not connect: ${reply.error}`);
      return reply.open!;
    },
    /** Resolves with the absolute time (ms) the next event about `chatId` reached its reader. */
    waitFor: (chatId: number) => new Promise<number>((ok) => waiters.set(chatId, ok)),
    async close() {
      await ask({ type: 'close' });
      await worker.terminate();
    },
  };
}

/** The soft limit on open files: each stream is a socket here and one in the clients' thread. */
function openFileLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    return Number(line?.split(/\s+/)[3] ?? Number.POSITIVE_INFINITY);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** The server thread's heap after a full collection, and the process's resident memory, in bytes. */
function memoryNow() {
  collectGarbage();
  collectGarbage();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}

const now = () => performance.timeOrigin + performance.now();

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
 * (BENCH_SSE_CLIENTS) signed-in users hold GET /api/events open on one app instance, from a second
 * thread, while senders write chat messages to them one at a time, spread over 32 s so the streams'
 * heartbeat (25 s) falls among them. Value: p95 from the send to the event arriving at its reader's
 * stream. Baseline: p95 of the same send answered with no stream open. Target: delivery p95 under
 * 250 ms. Also printed: the server thread's heap per open stream, and the process's RSS per stream.
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
    let closeClients: (() => Promise<void>) | null = null;
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

      // Target: every reader connected (from the clients' thread); each send timed until its reader's stream has the event.
      const limit = openFileLimit();
      if (limit < 2 * LISTENERS + 200) {
        throw new Error(
          `${LISTENERS} streams need about ${2 * LISTENERS + 200} open files here (a socket at each end); the limit is ${limit}: raise it (ulimit -n).`,
        );
      }
      const before = memoryNow();
      const clients = startClients();
      closeClients = () => clients.close();
      const openedAt = performance.now();
      const open = await clients.open(
        port,
        readers.map((r) => r.cookie),
      );
      const connectMs = performance.now() - openedAt;
      const after = memoryNow();
      const delivered: number[] = [];
      const gap = SEND_WINDOW_MS / picks.length;
      for (const i of picks) {
        const chatId = chatOf.get(readers[i]!.id)!;
        const arrived = clients.waitFor(chatId);
        const t0 = now();
        await send(port, senders[i % SENDERS]!, chatId, 'live');
        delivered.push((await arrived) - t0);
        await new Promise((r) => setTimeout(r, gap));
      }
      const heapPer = (after.heap - before.heap) / open;
      const rssPer = (after.rss - before.rss) / open;
      const load = loadavg()
        .map((l) => l.toFixed(2))
        .join(', ');
      console.log(
        `  ${open} streams open in ${(connectMs / 1000).toFixed(1)} s; server heap per stream ${(heapPer / 1024).toFixed(1)} KiB ` +
          `(${((after.heap - before.heap) / 1048576).toFixed(1)} MiB for all), process RSS per stream ${(rssPer / 1024).toFixed(1)} KiB (server and clients); ` +
          `sends over ${SEND_WINDOW_MS / 1000} s (heartbeats included); load average ${load} on ${availableParallelism()} CPUs`,
      );
      const value = percentile(delivered, 95);
      const baseline = percentile(alone, 95);
      const ratio = value / baseline;
      console.log(
        `  send alone p50 ${percentile(alone, 50).toFixed(1)} ms, p95 ${baseline.toFixed(1)} ms; ` +
          `send → event p50 ${percentile(delivered, 50).toFixed(1)} ms, p95 ${value.toFixed(1)} ms, max ${Math.max(...delivered).toFixed(1)} ms (ratio ${ratio.toFixed(2)})`,
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
      await closeClients?.();
      if (app) await app.close();
      await database.close();
      await scratch.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
