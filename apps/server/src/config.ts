import { createHmac, randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { parseStorageUrl, type StorageConfig } from './lib/storage/storage-url';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Unset: 127.0.0.1 for a local start, 0.0.0.0 in production (see loadConfig). */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://localhost:3000' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** A direct connection (not through PgBouncer) for LISTEN, migrations and backups; unset: DATABASE_URL. */
  DATABASE_LISTEN_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** A streaming replica for the reads that may lag (catalogue, search, public pages and profiles, analytics). */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** `transaction`: DATABASE_URL is a PgBouncer in transaction pooling mode. */
  DATABASE_POOL_MODE: z
    .enum(['session', 'transaction'], { error: 'must be session (a direct connection) or transaction (PgBouncer transaction pooling)' })
    .default('session'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  /** Unset: no proxy; a number of hops; or the proxies' addresses and CIDR ranges (see parseTrustProxy). */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'object' && 'problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
      return typeof parsed === 'object' && 'problem' in parsed ? false : parsed;
    }),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Atelier <no-reply@atelier.example>'),
  SEED_DEMO: z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(15_000),
  STORAGE_URL: z
    .string()
    .optional()
    .transform((value, ctx): StorageConfig => {
      if (value === undefined) return { kind: 'local' };
      const parsed = parseStorageUrl(value);
      if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
      return 'problem' in parsed ? { kind: 'local' } : parsed;
    }),
  /** Unset: the sandbox for a local start only; a production start must name it (see loadConfig). */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe'], { error: 'must be sandbox or stripe' }).optional(),
  /** Unset: the sandbox for a local start, manual (the back office's queue) otherwise. */
  PAYOUT_PROVIDER: z.enum(['sandbox', 'manual', 'stripe'], { error: 'must be sandbox, manual or stripe' }).optional(),
  /** Stripe Connect (PAYOUT_PROVIDER=stripe): the country of the connected accounts made for creators paid by card. */
  STRIPE_CONNECT_COUNTRY: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as DE')
    .transform((v) => v.toUpperCase())
    .optional(),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must be a Stripe secret key (sk_...)').optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_', 'must be a Stripe publishable key (pk_...)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_', 'must be a Stripe webhook signing secret (whsec_...)').optional(),
  SANDBOX_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Seconds before the sandbox payout provider settles a card payout. */
  SANDBOX_PAYOUT_DELAY_S: z.coerce.number().int().min(0).max(86_400).default(10),
  /** A MaxMind GeoLite2/GeoIP2 City or Country database (.mmdb): the coarse place in sign-in alerts. */
  GEOIP_DB: z.string().min(1).optional(),
  IMAGE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of an OpenAI-compatible API' }).optional(),
  IMAGE_API_KEY: z.string().min(1).optional(),
  IMAGE_API_MODEL: z.string().min(1).optional(),
  /** The OpenAPI document and its docs page: on unless production; `true` turns them on there too. */
  API_DOCS: z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).optional(),
  /** Unset: no metrics listener. A port (0: any free one) for GET /metrics, on METRICS_HOST. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Unset: 127.0.0.1, so only this machine (a local Prometheus or agent) reaches the metrics port. */
  METRICS_HOST: z.string().min(1).optional(),
  /** Unset: the main port has no /metrics (404). Set: GET /metrics there needs Authorization: Bearer <token>. */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters (a long random secret)').optional(),
  /** Unset: no tracing. An OTLP/HTTP collector (http://collector:4318) receives the traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL of an OTLP collector, such as http://localhost:4318' }).optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('atelier'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  /**
   * Issue 31: the start of a link the app hands back to the browser that asked (a payment's return,
   * the sandbox's pages): PUBLIC_URL when it is set, else '' so the link is relative and follows the
   * address the user opened (127.0.0.1 stays 127.0.0.1, and so keeps its session cookie). E-mails
   * and other links sent elsewhere keep `publicUrl`.
   */
  linkBase: string;
  /** Passkeys: the relying party id (PUBLIC_URL's host name) and the origin browsers report (PUBLIC_URL's origin). */
  webauthn: { rpId: string; origin: string };
  dataDir: string;
  databaseUrl: string | undefined;
  /** How to reach PostgreSQL beside DATABASE_URL; spread into openDatabase. */
  database: { listenUrl?: string; readUrl?: string; poolMode: 'session' | 'transaction' };
  sessionSecret: string;
  logLevel: string;
  webDist: string;
  bodyLimit: number;
  isProduction: boolean;
  /** Serve `/api/openapi.json` and `/api/docs` (API_DOCS; default: everywhere but production). */
  apiDocs: boolean;
  /**
   * Behind reverse proxies: the client address is read from X-Forwarded-For, skipping this many hops
   * from the right, or every hop from these addresses/ranges (rate limits key on it). false: the socket's.
   */
  trustProxy: TrustProxy;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Demo accounts and catalogue are created only when this is on (default: a local, non-production start). */
  seedDemo: boolean;
  /** On SIGTERM: keep serving this long (readiness says 503) before closing the listener. */
  shutdownGraceMs: number;
  /** On SIGTERM: in-flight requests get this long to finish. */
  shutdownTimeoutMs: number;
  /** Where uploaded and generated files live: local disk under DATA_DIR, or an S3-compatible bucket. */
  storage: StorageConfig;
  /** An OpenAI-compatible images API for generated images; without it a built-in renderer draws them. */
  imageApi?: { url: string; key: string; model?: string };
  /** GEOIP_DB: a local MaxMind database naming the place of a sign-in; without it the place is unknown. */
  geoipDb?: string;
  /** Card payments for deposits: the built-in sandbox (default, offline) or Stripe. */
  payments: {
    provider: 'sandbox' | 'stripe';
    /** Signs the sandbox's webhooks; derived from the session secret unless given. */
    sandboxWebhookSecret: string;
    stripe?: { secretKey: string; publishableKey: string; webhookSecret: string };
    /** The sandbox payout provider settles card payouts this many seconds after the request. */
    sandboxPayoutDelaySeconds: number;
  };
  /** Creators' payouts (PAYOUT_PROVIDER): the sandbox, the back office's manual queue, or Stripe Connect transfers. */
  payouts: {
    provider: 'sandbox' | 'manual' | 'stripe';
    stripe?: { secretKey: string; connectCountry: string };
  };
  /** A sandbox stands in for real money on a start others can reach: every page shows 'Test mode: no real money'. */
  testMode: boolean;
  /** Prometheus metrics: the listener (METRICS_PORT on METRICS_HOST) and the main port's bearer token. */
  metrics: { port?: number; host: string; token?: string };
  /** OpenTelemetry traces, sent over OTLP/HTTP when an endpoint is set. */
  tracing: { endpoint?: string; serviceName: string };
  /** What the start must say loudly (one warning line each): a test path configured on a start others can reach. */
  warnings: string[];
};

/** Shortest session secret accepted, in bytes: anything less lets strangers forge signed links. */
export const MIN_SECRET_BYTES = 32;

export type TrustProxy = false | number | string[];

/** The names proxy-addr knows for address ranges, beside literal addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Ranges that contain every address: trusting them lets any client write its own address. */
const EVERY_ADDRESS = new Set(['0.0.0.0/0', '::/0', '0.0.0.0', '::']);

/**
 * TRUST_PROXY: unset, `false` or `0` trusts no proxy; a whole number trusts that many hops in front of
 * the app; otherwise a comma-separated list of the proxies' addresses and CIDR ranges (`10.0.0.0/8,127.0.0.1`;
 * `loopback`, `linklocal` and `uniquelocal` name those ranges). `true`, `0.0.0.0/0` and `::/0` would
 * trust every address, so any client could write its own address into X-Forwarded-For: they stop the start.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy | { problem: string } {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    return {
      problem:
        "true would trust every address, so any visitor could choose the address that sign-in limits count: give the number of proxies in front of the app (1 for one nginx) or the proxies' addresses",
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { problem: 'a number of proxy hops is at most 10' };
  }
  const entries = text.split(',').map((part) => part.trim());
  const everything = entries.filter((entry) => EVERY_ADDRESS.has(entry));
  if (everything.length) {
    return {
      problem: `${everything.join(', ')} would trust every address, so any visitor could choose the address that sign-in limits count: name only your proxies' addresses or ranges`,
    };
  }
  const bad = entries.filter((entry) => {
    if (PROXY_RANGE_NAMES.has(entry)) return false;
    const [address = '', prefix, ...rest] = entry.split('/');
    const version = isIP(address);
    if (!version || rest.length) return true;
    if (prefix === undefined) return false;
    return !/^\d{1,3}$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128) || Number(prefix) === 0;
  });
  if (bad.length) {
    return {
      problem: `must be false, a number of proxy hops (1 for one proxy), or the proxies' addresses and CIDR ranges separated by commas; not ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    };
  }
  return entries;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const isProduction = e.NODE_ENV === 'production';
  // A local start: not production, and reached by this machine's own name. Only it gets test paths by default.
  const localStart = !isProduction && isLoopbackUrl(publicUrl);
  const host = e.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1');
  const listensLocally = isLoopbackHost(host);
  const where = isProduction ? 'a production start' : `a start at ${publicUrl} listening on ${host}`;
  const problems: string[] = [];
  const warnings: string[] = [];

  if (!e.PAYMENT_PROVIDER && !localStart) {
    problems.push(
      'PAYMENT_PROVIDER: a production start (or one whose PUBLIC_URL is not this machine) must name its card payment provider: stripe, or sandbox to take test cards that no real money backs.',
    );
  }
  const paymentProvider = e.PAYMENT_PROVIDER ?? 'sandbox';
  const payoutProvider = e.PAYOUT_PROVIDER ?? (localStart ? 'sandbox' : 'manual');
  const stripeNeeds = new Map<string, string[]>();
  const need = (key: string, why: string) => stripeNeeds.set(key, [...(stripeNeeds.get(key) ?? []), why]);
  if (paymentProvider === 'stripe') {
    for (const k of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) if (!e[k]) need(k, 'PAYMENT_PROVIDER=stripe');
  }
  if (payoutProvider === 'stripe') {
    if (!e.STRIPE_SECRET_KEY) need('STRIPE_SECRET_KEY', 'PAYOUT_PROVIDER=stripe');
    if (!e.STRIPE_CONNECT_COUNTRY)
      need('STRIPE_CONNECT_COUNTRY', 'PAYOUT_PROVIDER=stripe (the two-letter country, such as DE, of the connected accounts made for creators)');
  }
  for (const [key, why] of stripeNeeds) problems.push(`${key}: required when ${why.join(' and when ')}`);
  for (const key of ['DATABASE_LISTEN_URL', 'DATABASE_READ_URL'] as const) {
    if (e[key] && !e.DATABASE_URL) problems.push(`${key}: needs DATABASE_URL too (the embedded database has no separate connections).`);
  }
  if (e.DATABASE_POOL_MODE === 'transaction' && !e.DATABASE_LISTEN_URL) {
    problems.push(
      'DATABASE_LISTEN_URL: required when DATABASE_POOL_MODE=transaction: LISTEN and migrations need a direct connection to PostgreSQL, not one through PgBouncer.',
    );
  }
  if (problems.length) throw new ConfigError(problems);

  if (e.PAYMENT_PROVIDER === 'sandbox' && !localStart) {
    warnings.push(
      `PAYMENT_PROVIDER=sandbox on ${where}: Add Funds takes test cards and credits balance that no real money backs; every page shows 'Test mode: no real money'.`,
    );
  }
  if (e.PAYOUT_PROVIDER === 'sandbox' && !localStart) {
    warnings.push(
      `PAYOUT_PROVIDER=sandbox on ${where}: card payouts are simulated and no money reaches creators; every page shows 'Test mode: no real money'.`,
    );
  }
  const sandboxInUse = paymentProvider === 'sandbox' || payoutProvider === 'sandbox';
  if (localStart && !listensLocally && sandboxInUse) {
    warnings.push(`HOST=${host} serves this development start beyond this machine with the payment sandbox: every page shows 'Test mode: no real money'.`);
  }
  const seedDemoDefault = localStart && listensLocally;
  const seedDemo = e.SEED_DEMO ? e.SEED_DEMO === 'true' || e.SEED_DEMO === '1' : seedDemoDefault;
  if (seedDemo && !seedDemoDefault) {
    warnings.push(`SEED_DEMO=${e.SEED_DEMO} on ${where}: the demo accounts, staff included, sign in with the password published in the README.`);
  }
  if (isProduction && publicUrl.startsWith('https://') && e.TRUST_PROXY === false) {
    warnings.push(
      'TRUST_PROXY is not set on a production start at an https PUBLIC_URL: if a proxy (nginx, a load balancer) terminates TLS in front of the app, every visitor looks like that proxy, so sign-in limits count them together (one guesser can lock everyone out) and sessions show its address. Set TRUST_PROXY to the number of proxies (1) or their addresses.',
    );
  }
  const dataDir = prepareDataDir(path.resolve(cwd, e.DATA_DIR));
  const sessionSecret = e.SESSION_SECRET ?? readOrCreateSecret(dataDir);
  return {
    env: e.NODE_ENV,
    host,
    port: e.PORT,
    publicUrl,
    linkBase: e.PUBLIC_URL ? publicUrl : '',
    webauthn: { rpId: new URL(publicUrl).hostname, origin: new URL(publicUrl).origin },
    dataDir,
    databaseUrl: e.DATABASE_URL,
    database: { listenUrl: e.DATABASE_LISTEN_URL, readUrl: e.DATABASE_READ_URL, poolMode: e.DATABASE_POOL_MODE },
    sessionSecret,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? path.resolve(cwd, e.WEB_DIST) : findWebDist(),
    bodyLimit: e.BODY_LIMIT_BYTES,
    isProduction,
    apiDocs: e.API_DOCS ? e.API_DOCS === 'true' || e.API_DOCS === '1' : !isProduction,
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    seedDemo,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    storage: e.STORAGE_URL,
    geoipDb: e.GEOIP_DB ? path.resolve(cwd, e.GEOIP_DB) : undefined,
    imageApi: e.IMAGE_API_URL && e.IMAGE_API_KEY ? { url: e.IMAGE_API_URL, key: e.IMAGE_API_KEY, model: e.IMAGE_API_MODEL } : undefined,
    payments: {
      provider: paymentProvider,
      sandboxWebhookSecret: e.SANDBOX_WEBHOOK_SECRET ?? createHmac('sha256', sessionSecret).update('sandbox-webhook').digest('base64url'),
      stripe:
        paymentProvider === 'stripe'
          ? { secretKey: e.STRIPE_SECRET_KEY!, publishableKey: e.STRIPE_PUBLISHABLE_KEY!, webhookSecret: e.STRIPE_WEBHOOK_SECRET! }
          : undefined,
      sandboxPayoutDelaySeconds: e.SANDBOX_PAYOUT_DELAY_S,
    },
    payouts: {
      provider: payoutProvider,
      stripe: payoutProvider === 'stripe' ? { secretKey: e.STRIPE_SECRET_KEY!, connectCountry: e.STRIPE_CONNECT_COUNTRY! } : undefined,
    },
    testMode: sandboxInUse && !(localStart && listensLocally),
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST ?? '127.0.0.1', token: e.METRICS_TOKEN },
    tracing: { endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME },
    warnings,
  };
}

/** True for http(s)://localhost, 127.x.x.x and [::1]: a start only this machine can reach by that name. */
export function isLoopbackUrl(url: string): boolean {
  return isLoopbackHost(new URL(url).hostname);
}

/** True for an interface only this machine reaches (localhost, 127.x.x.x, ::1); 0.0.0.0 and :: listen on every network. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/** The data folder must be a writable directory; say so plainly instead of failing later with a stack trace. */
function prepareDataDir(dataDir: string): string {
  try {
    if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
      throw new ConfigError([`DATA_DIR: ${dataDir} is a file, not a folder. Point DATA_DIR at a folder (it is created if missing).`]);
    }
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK | constants.R_OK);
    return dataDir;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new ConfigError([`DATA_DIR: cannot use ${dataDir} (${code}). Make sure it is a folder this user can read and write.`]);
  }
}

/** A secret generated on first start and kept in DATA_DIR, so sessions survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    let secret: string;
    try {
      secret = readFileSync(file, 'utf8').trim();
    } catch (err) {
      throw new ConfigError([`SESSION_SECRET: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`]);
    }
    // Never fall back to a short or empty key: with it anyone could sign verification links.
    if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
      throw new ConfigError([
        `SESSION_SECRET: ${file} holds ${Buffer.byteLength(secret)} bytes; it needs at least ${MIN_SECRET_BYTES}. Delete the file to have a new secret generated (every session ends), or put a long random secret in it.`,
      ]);
    }
    return secret;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The built web app, found relative to this file both from src/ (tsx, tests) and dist/ (bundle). */
function findWebDist(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'apps', 'web', 'dist');
    if (existsSync(path.join(dir, 'apps', 'web'))) return candidate;
    dir = path.dirname(dir);
  }
  return path.resolve('apps/web/dist');
}

/** Walks up from this module to find a folder shipped beside the server (migrations). */
export function findServerFolder(name: string): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  for (let i = 0; i < 4; i++) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`Cannot find the ${name} folder next to the server.`);
}
