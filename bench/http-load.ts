import { Worker } from 'node:worker_threads';

export type LoadResult = { requests: number; errors: number; ms: number; perSecond: number; statuses: Record<string, number> };

/** One client of a load: its own headers (a cookie, an XSRF token) and, for a POST, its own bodies, sent in order. */
export type LoadLane = { headers?: Record<string, string>; bodies?: string[] };

/**
 * The load generator runs in a worker thread (its own event loop, the machine's other core), so the
 * server under test keeps its main thread. Keep-alive HTTP/1.1 to 127.0.0.1 only; bounded by both a
 * request count and a time limit. A request counts as an error unless its status is `okStatus` (200).
 * With `lanes`, each lane is one client sending one request at a time; a lane with bodies stops when
 * they run out, so no body is sent twice.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, paths, method, headers, lanes, maxRequests, maxMs, okStatus } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: lanes.length });
let sent = 0;
let done = 0;
let errors = 0;
const statuses = {};
function one(lane, body) {
  return new Promise((resolve) => {
    const path = paths[sent++ % paths.length];
    const h = { ...headers, ...lane.headers };
    if (body !== undefined) { h['content-type'] = 'application/json'; h['content-length'] = Buffer.byteLength(body); }
    const req = http.request({ host: '127.0.0.1', port, path, method, agent, headers: h }, (res) => {
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode !== okStatus) errors++;
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => { errors++; statuses.network = (statuses.network ?? 0) + 1; resolve(); });
    req.end(body);
  });
}
(async () => {
  const start = performance.now();
  const deadline = start + maxMs;
  async function run(lane) {
    let next = 0;
    while (sent < maxRequests && performance.now() < deadline) {
      if (lane.bodies && next >= lane.bodies.length) break;
      await one(lane, lane.bodies ? lane.bodies[next++] : undefined);
      done++;
    }
    lane.used = next;
  }
  await Promise.all(lanes.map(run));
  const ms = performance.now() - start;
  agent.destroy();
  parentPort.postMessage({ requests: done, errors, ms, statuses, used: lanes.map((l) => l.used) });
})();
`;

export function runLoad(opts: {
  port: number;
  paths: string[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Either `lanes` (one per client) or `concurrency` identical clients (16 by default). */
  lanes?: LoadLane[];
  concurrency?: number;
  okStatus?: number;
  maxRequests: number;
  maxMs: number;
}): Promise<LoadResult & { used: number[] }> {
  const lanes = opts.lanes ?? Array.from({ length: opts.concurrency ?? 16 }, () => ({}));
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        port: opts.port,
        paths: opts.paths,
        method: opts.method ?? 'GET',
        headers: opts.headers ?? {},
        lanes,
        okStatus: opts.okStatus ?? 200,
        maxRequests: opts.maxRequests,
        maxMs: opts.maxMs,
      },
    });
    worker.once('message', (m: { requests: number; errors: number; ms: number; statuses: Record<string, number>; used: number[] }) => {
      resolve({ ...m, perSecond: (m.requests / m.ms) * 1000 });
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** The p-th percentile (0..100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}
