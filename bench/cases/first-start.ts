import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIsCurrent } from '../../scripts/build-state.mjs';
import type { BenchCase } from '../run';

/** The bound: a first start answers, pictures included, within 8 s of the process starting. */
const TARGET_FIRST_START_MS = 8_000;
const GIVE_UP_MS = 120_000;
const SERVER = path.resolve('apps/server/dist/server.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ok(url: string): Promise<Response | null> {
  try {
    const res = await fetch(url);
    return res.ok ? res : null;
  } catch {
    return null;
  }
}

/**
 * Starts the built server on `dataDir` and returns the milliseconds from spawning the process until
 * /readyz answers 200, the home page answers, and the first picture the home page shows is served.
 */
async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    while (!(await ok(`${base}/readyz`))) {
      if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error('the server did not become ready');
      await sleep(50);
    }
    const home = await ok(base);
    const picture = (await home?.text())?.match(/\/storage\/products\/[^"' ,]+\.webp/)?.[0];
    if (!picture) throw new Error('the home page shows no product picture');
    const image = await ok(`${base}${picture}`);
    if (!image || !(image.headers.get('content-type') ?? '').startsWith('image/')) throw new Error(`${picture} is not served`);
    return performance.now() - started;
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * First start on an empty data folder (database created, seeded, demo pictures in storage) against
 * a restart on the same data, both measured from process start to a home page with pictures.
 */
export const firstStart: BenchCase = {
  name: 'first start (empty data folder) vs restart',
  async run() {
    // The built app, as `npm start` runs it: built first when there is none or the sources changed since.
    if (!buildIsCurrent()) {
      console.log('  building the app first (the sources changed since the last build, or there is none)...');
      execSync('npm run build', { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-bench-first-'));
    try {
      const first = await timeStart(dataDir);
      // The restart's best of three, so one slow moment does not flatter the ratio.
      const restarts: number[] = [];
      for (let i = 0; i < 3; i++) restarts.push(await timeStart(dataDir));
      const restart = Math.min(...restarts);
      console.log(
        `  first start ${(first / 1000).toFixed(2)} s, restart ${(restart / 1000).toFixed(2)} s (target: first start within ${TARGET_FIRST_START_MS / 1000} s)`,
      );
      return {
        name: 'first start vs restart',
        value: first,
        baseline: restart,
        unit: 'ms',
        ratio: first / restart,
        target: `first start ≤ ${TARGET_FIRST_START_MS / 1000} s`,
        pass: first <= TARGET_FIRST_START_MS,
      };
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
