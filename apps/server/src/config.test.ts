import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SESSION_SECRET: 'short', NODE_ENV: 'staging' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^DATABASE_URL: must start with postgres:\/\//m);
    expect(problems).toMatch(/^SESSION_SECRET: must be at least 32 characters/m);
    expect(problems).toMatch(/^NODE_ENV:/m);
  });

  it('uses the defaults and keeps a generated session secret in DATA_DIR', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-config-'));
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
    expect(a.publicUrl).toBe('http://localhost:3000');
    expect(a.databaseUrl).toBeUndefined();
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.sessionSecret).toBe(a.sessionSecret);
    expect((await readFile(path.join(dir, 'session-secret'), 'utf8')).trim()).toBe(a.sessionSecret);
  });
});

/** The problems a configuration is refused with (one sentence each), or [] when it loads. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('hole 1: a production start takes no test cards', () => {
  const dir = path.join(tmpdir(), 'atelier-config-providers');
  const production = { DATA_DIR: dir, NODE_ENV: 'production', PUBLIC_URL: 'https://atelier.example', TRUST_PROXY: '1' };

  it('hole 1: without PAYMENT_PROVIDER a production start is refused with one sentence naming the variable', () => {
    const problems = problemsOf(production);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^PAYMENT_PROVIDER: a production start .* must name its card payment provider: stripe, or sandbox .*\.$/);
    expect(problems[0]!.split('. ')).toHaveLength(1);
    // The same for a development start at a public address: only a local start gets the sandbox by default.
    expect(problemsOf({ DATA_DIR: dir, PUBLIC_URL: 'https://atelier.example' })[0]).toMatch(/^PAYMENT_PROVIDER: /);
    const local = loadConfig({ DATA_DIR: dir });
    expect(local.payments.provider).toBe('sandbox');
    expect(local.payouts.provider).toBe('sandbox');
    expect(local.testMode).toBe(false);
    expect(local.warnings).toEqual([]);
  });

  it('hole 1: PAYMENT_PROVIDER=sandbox in production is allowed when said, with a warning and the test-mode flag', () => {
    const config = loadConfig({ ...production, PAYMENT_PROVIDER: 'sandbox' });
    expect(config.payments.provider).toBe('sandbox');
    expect(config.testMode).toBe(true);
    expect(config.warnings).toEqual([expect.stringMatching(/^PAYMENT_PROVIDER=sandbox on a production start: .*'Test mode: no real money'\.$/)]);
    // Payouts default to the back office's manual queue in production, never the sandbox.
    expect(config.payouts.provider).toBe('manual');
    const both = loadConfig({ ...production, PAYMENT_PROVIDER: 'sandbox', PAYOUT_PROVIDER: 'sandbox' });
    expect(both.warnings).toHaveLength(2);
    expect(both.warnings[1]).toMatch(/^PAYOUT_PROVIDER=sandbox on a production start: card payouts are simulated/);
    const real = loadConfig({
      ...production,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(real).toMatchObject({ testMode: false, warnings: [], payouts: { provider: 'manual' } });
  });

  it('hole 2: PAYOUT_PROVIDER=stripe names each missing Stripe Connect variable in its own sentence', () => {
    expect(problemsOf({ ...production, PAYMENT_PROVIDER: 'sandbox', PAYOUT_PROVIDER: 'stripe' })).toEqual([
      'STRIPE_SECRET_KEY: required when PAYOUT_PROVIDER=stripe',
      'STRIPE_CONNECT_COUNTRY: required when PAYOUT_PROVIDER=stripe (the two-letter country, such as DE, of the connected accounts made for creators)',
    ]);
    expect(problemsOf({ ...production, PAYMENT_PROVIDER: 'stripe', PAYOUT_PROVIDER: 'stripe', STRIPE_CONNECT_COUNTRY: 'DE' })).toEqual([
      'STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe and when PAYOUT_PROVIDER=stripe',
      'STRIPE_PUBLISHABLE_KEY: required when PAYMENT_PROVIDER=stripe',
      'STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER=stripe',
    ]);
    expect(problemsOf({ ...production, PAYMENT_PROVIDER: 'sandbox', PAYOUT_PROVIDER: 'paypal' })).toEqual([
      'PAYOUT_PROVIDER: must be sandbox, manual or stripe',
    ]);
    const connect = loadConfig({
      ...production,
      PAYMENT_PROVIDER: 'sandbox',
      PAYOUT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_CONNECT_COUNTRY: 'de',
    });
    expect(connect.payouts).toEqual({ provider: 'stripe', stripe: { secretKey: 'sk_live_x', connectCountry: 'DE' } });
  });

  it('hole 1: `node server.js` in production without a provider prints the sentence and exits 1, no stack trace', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-prod-start-'));
    try {
      const env = { ...process.env, ...production, DATA_DIR: dataDir, DATABASE_URL: '', PAYMENT_PROVIDER: '', PORT: '0' };
      const failed = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        cwd: path.resolve(import.meta.dirname, '..'),
        env,
      }).catch((err: { code: number; stderr: string }) => err);
      expect((failed as { code: number }).code).toBe(1);
      const stderr = (failed as { stderr: string }).stderr;
      expect(stderr).toMatch(/^Invalid configuration:\n {2}- PAYMENT_PROVIDER: a production start/);
      expect(stderr).not.toMatch(/\bat .*\.ts:\d+/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('hole 9: a plain start is not served to the network with demo data', () => {
  const dir = path.join(tmpdir(), 'atelier-config-host');

  it('hole 9: a local start binds 127.0.0.1 unless HOST is set; demo data stays off whenever it listens beyond loopback', () => {
    const local = loadConfig({ DATA_DIR: dir });
    expect(local).toMatchObject({ host: '127.0.0.1', seedDemo: true, testMode: false });
    expect(loadConfig({ DATA_DIR: dir, HOST: '::1' })).toMatchObject({ host: '::1', seedDemo: true });
    const open = loadConfig({ DATA_DIR: dir, HOST: '0.0.0.0' });
    expect(open).toMatchObject({ host: '0.0.0.0', seedDemo: false, testMode: true });
    expect(open.warnings).toEqual([expect.stringMatching(/^HOST=0\.0\.0\.0 serves this development start beyond this machine/)]);
    expect(loadConfig({ DATA_DIR: dir, HOST: '192.168.1.20' }).seedDemo).toBe(false);
    // A production start listens on every interface (containers), and never has demo data by default.
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' })).toMatchObject({ host: '0.0.0.0', seedDemo: false });
  });

  it('hole 9: SEED_DEMO=true still wins beyond loopback, and says so loudly', () => {
    const config = loadConfig({ DATA_DIR: dir, HOST: '0.0.0.0', SEED_DEMO: 'true' });
    expect(config.seedDemo).toBe(true);
    expect(config.warnings).toContainEqual(
      expect.stringMatching(/^SEED_DEMO=true on a start at http:\/\/localhost:3000 listening on 0\.0\.0\.0: the demo accounts, staff included/),
    );
  });

  it('hole 9: a started server listens on 127.0.0.1 by default', { timeout: 120_000 }, async () => {
    const { startServer } = await import('./server');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-start-'));
    try {
      const running = await startServer(loadConfig({ DATA_DIR: dataDir, PORT: '0', SEED_DEMO: 'false', SHUTDOWN_GRACE_MS: '0', LOG_LEVEL: 'silent' }));
      try {
        expect((running.app.server.address() as AddressInfo).address).toBe('127.0.0.1');
        expect((await running.app.inject({ url: '/api/settings' })).json().payload).toMatchObject({ test_mode: false, payout_methods: ['card', 'sepa'] });
      } finally {
        await running.shutdown('test');
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('hole 1: an explicit sandbox in production is logged as a warning at start and flagged to every page', { timeout: 120_000 }, async () => {
    const { startServer } = await import('./server');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-start-prod-'));
    const lines: string[] = [];
    try {
      const config = loadConfig({
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://atelier.example',
        PAYMENT_PROVIDER: 'sandbox',
        HOST: '127.0.0.1',
        PORT: '0',
        SHUTDOWN_GRACE_MS: '0',
        LOG_LEVEL: 'info',
      });
      const prod = await startServer(config, { logStream: { write: (line) => lines.push(line) } });
      try {
        const warning = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => l.msg.startsWith('PAYMENT_PROVIDER=sandbox'));
        expect(warning?.level).toBe(40);
        expect((await prod.app.inject({ url: '/api/settings' })).json().payload).toMatchObject({ test_mode: true, payout_methods: ['sepa'] });
      } finally {
        await prod.shutdown('test');
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('database connections beside DATABASE_URL', () => {
  const primary = 'postgres://app@db.internal:6432/atelier';
  it('reads DATABASE_LISTEN_URL, DATABASE_READ_URL and DATABASE_POOL_MODE', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-config-'));
    const config = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: primary,
      DATABASE_LISTEN_URL: 'postgres://app@db.internal:5432/atelier',
      DATABASE_READ_URL: 'postgres://app@replica.internal:5432/atelier',
      DATABASE_POOL_MODE: 'transaction',
    });
    expect(config.database).toEqual({
      listenUrl: 'postgres://app@db.internal:5432/atelier',
      readUrl: 'postgres://app@replica.internal:5432/atelier',
      poolMode: 'transaction',
    });
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: primary }).database).toEqual({ listenUrl: undefined, readUrl: undefined, poolMode: 'session' });
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses transaction pooling without a direct URL, and replica or listen URLs without DATABASE_URL', () => {
    expect(problemsOf({ DATABASE_URL: primary, DATABASE_POOL_MODE: 'transaction' }).join('\n')).toMatch(
      /^DATABASE_LISTEN_URL: required when DATABASE_POOL_MODE=transaction/m,
    );
    expect(problemsOf({ DATABASE_READ_URL: primary, DATABASE_LISTEN_URL: primary }).join('\n')).toMatch(
      /^DATABASE_LISTEN_URL: needs DATABASE_URL too[\s\S]*^DATABASE_READ_URL: needs DATABASE_URL too/m,
    );
    expect(problemsOf({ DATABASE_URL: primary, DATABASE_POOL_MODE: 'statement', DATABASE_READ_URL: 'mysql://x' }).join('\n')).toMatch(
      /^DATABASE_READ_URL: must start with postgres:\/\/[\s\S]*^DATABASE_POOL_MODE: must be session/m,
    );
  });
});
