import { Worker } from 'node:worker_threads';

export type LoadResult = { requests: number; errors: number; ms: number; perSecond: number };

/**
 * The load generator runs in a worker thread (its own event loop, the machine's other core), so the
 * server under test keeps its main thread. Keep-alive HTTP/1.1 to 127.0.0.1 only; bounded by both a
 * request count and a time limit.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, paths, headers, concurrency, maxRequests, maxMs } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
let sent = 0;
let done = 0;
let errors = 0;
function one() {
  return new Promise((resolve) => {
    const path = paths[sent++ % paths.length];
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      if (res.statusCode !== 200) errors++;
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => { errors++; resolve(); });
    req.end();
  });
}
(async () => {
  const start = performance.now();
  const deadline = start + maxMs;
  async function lane() {
    while (sent < maxRequests && performance.now() < deadline) { await one(); done++; }
  }
  await Promise.all(Array.from({ length: concurrency }, lane));
  const ms = performance.now() - start;
  agent.destroy();
  parentPort.postMessage({ requests: done, errors, ms });
})();
`;

export function runLoad(opts: {
  port: number;
  paths: string[];
  headers?: Record<string, string>;
  concurrency?: number;
  maxRequests: number;
  maxMs: number;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        port: opts.port,
        paths: opts.paths,
        headers: opts.headers ?? {},
        concurrency: opts.concurrency ?? 16,
        maxRequests: opts.maxRequests,
        maxMs: opts.maxMs,
      },
    });
    worker.once('message', (m: { requests: number; errors: number; ms: number }) => {
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
