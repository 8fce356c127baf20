import { randomUUID } from 'node:crypto';
import { OFFER_FILE_MAX_BYTES } from '@atelier/shared';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { analyticsAdminRoutes, analyticsRoutes } from './features/analytics';
import { auditAdminRoutes } from './features/audit';
import { authRoutes } from './features/auth';
import { bundlesAdminRoutes, bundlesRoutes } from './features/bundles';
import { cartRoutes } from './features/cart';
import { catalogAdminRoutes, catalogRoutes, packsAdminRoutes } from './features/catalog';
import { chatRoutes } from './features/chat';
import { devMailRoutes } from './features/dev-mail/dev-mail.routes';
import { discountsAdminRoutes, discountsRoutes } from './features/discounts';
import { earningsRoutes } from './features/earnings';
import { favouritesRoutes } from './features/favourites';
import { followsRoutes } from './features/follows';
import { generationRoutes } from './features/generation';
import { healthRoutes } from './features/health/health.routes';
import { jobsAdminRoutes } from './features/jobs';
import { ledgerAdminRoutes, ledgerRoutes, registerReconciliationCheck } from './features/ledger';
import { notificationsRoutes } from './features/notifications';
import { listingsRoutes, offersAdminRoutes, offersRoutes } from './features/offers';
import { ordersRoutes } from './features/orders';
import { passkeysRoutes } from './features/passkeys';
import { disputesAdminRoutes, paymentsRoutes } from './features/payments';
import { type PayoutProvider, payoutsAdminRoutes, payoutsRoutes } from './features/payouts';
import { refundsAdminRoutes, refundsRoutes } from './features/refunds';
import { reportsAdminRoutes, reportsRoutes } from './features/reports';
import { reviewsAdminRoutes, reviewsRoutes } from './features/reviews';
import { requireStaffSecondFactor, securityRoutes } from './features/security';
import { sellersAdminRoutes, sellersRoutes } from './features/sellers';
import { registerWebApp } from './features/seo/web-app';
import { siteAdminRoutes } from './features/site/site.admin-routes';
import { siteRoutes } from './features/site/site.routes';
import { siteContentAdminRoutes } from './features/site/site-content.admin-routes';
import { storageRoutes } from './features/storage/storage.routes';
import { storefrontsRoutes } from './features/storefronts';
import { taxAdminRoutes, taxRoutes } from './features/tax';
import { userRoutes, usersAdminRoutes } from './features/users';
import { versionsAdminRoutes, versionsRoutes } from './features/versions';
import { registerAnalyzeJob } from './lib/analyze';
import { registerGuards } from './lib/auth-guard';
import { type ChangeFeed, createChangeFeed } from './lib/change-feed';
import { clientErrorHandler, registerErrorHandler, sendError } from './lib/error-handler';
import { type GeoIp, openGeoIp } from './lib/geoip';
import { registerHttpCache } from './lib/http-cache';
import { rejectNulCharacters } from './lib/input-guard';
import { createJobs, type Jobs } from './lib/jobs';
import { registerMailDelivery } from './lib/mail';
import { createMetrics, type Metrics, registerMetrics } from './lib/metrics';
import { openApiOptions } from './lib/openapi';
import { registerPurgeJobs } from './lib/purge';
import { registerSecurityHeaders } from './lib/security-headers';
import { registerSessions } from './lib/session';
import { createSettingsCache, forgetSettingsCache, type SettingsCache } from './lib/settings';
import { createStorage, type Storage } from './lib/storage';
import { activeTracing } from './lib/tracing';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    /** Reads that may lag a little (a replica, DATABASE_READ_URL): see Database.read. */
    readDb: Db;
    database: Database;
    storage: Storage;
    settings: SettingsCache;
    changes: ChangeFeed;
    /**
     * `drain()` starts a shutdown: `draining` turns true (readiness answers 503, answers ask clients to
     * reconnect elsewhere) and every `onDrain` callback runs once (live streams end there).
     */
    lifecycle: Lifecycle;
    jobs: Jobs;
    /** The coarse place of an address (GEOIP_DB), for sign-in alerts. */
    geoip: GeoIp;
    /** Prometheus metrics (lib/metrics.ts): features count their money outcomes and live streams here. */
    metrics: Metrics;
  }
}

export type Lifecycle = { draining: boolean; drain(): void; onDrain(fn: () => void): void };

function createLifecycle(): Lifecycle {
  const callbacks: (() => void)[] = [];
  const lifecycle: Lifecycle = {
    draining: false,
    drain() {
      if (lifecycle.draining) return;
      lifecycle.draining = true;
      for (const fn of callbacks.splice(0)) fn();
    },
    onDrain(fn) {
      callbacks.push(fn);
    },
  };
  return lifecycle;
}

export type BuildOptions = {
  config: Config;
  database: Database;
  storage?: Storage;
  /** Overrides the logger (false silences it). */
  logger?: FastifyServerOptions['logger'];
  /** The production logger writing every level to this stream (tests read what would be logged). */
  logStream?: { write(line: string): void };
  /** Replaces the payout provider PAYOUT_PROVIDER names (tests: a slow stub, Stripe with a fake HTTP client). */
  payoutProvider?: PayoutProvider;
};

/** Paths and body fields whose values must never reach a log line. */
export const logRedactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passConfirm',
  '*.cur_password',
  '*.new_password',
  '*.repeat_password',
  '*.token',
  '*.card_number',
  '*.account_number',
];

/**
 * An error as a log line may carry it: its type, message, code and stack, but never a failed query's
 * text or parameters (a register insert carries the password hash, the e-mail and the phone), nor
 * anything a driver attached to the error object.
 */
export function safeErrorForLog(err: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err).slice(0, 200), stack: '' };
  const e = err as Error & { code?: unknown; cause?: unknown; query?: unknown; params?: unknown };
  const cause = e.cause instanceof Error ? (e.cause as Error & { code?: unknown }) : undefined;
  const isQueryError = e.query !== undefined || e.params !== undefined || /^Failed query:/.test(e.message);
  // A failed query's own message is "Failed query: <sql> params: <values>": keep only the driver's reason.
  const message = isQueryError ? `database error: ${cause?.message ?? 'query failed'}` : e.message;
  const stackFrames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return {
    type: e.name,
    message: message.slice(0, 500),
    ...(typeof (cause?.code ?? e.code) === 'string' ? { code: cause?.code ?? e.code } : {}),
    stack: [`${e.name}: ${message.slice(0, 500)}`, ...stackFrames].join('\n'),
  };
}

/** Request lines carry the path only: query strings may hold signed links or tokens. */
export const logSerializers = {
  req: (req: { method: string; url: string; ip?: string }) => ({
    method: req.method,
    // The sandbox's hosted payment page carries its single-use token in the path.
    url: req.url.split('?')[0]!.replace(/(\/payments\/sandbox\/pay\/)[^/]+/, '$1[redacted]'),
    remoteAddress: req.ip,
  }),
  err: safeErrorForLog,
};

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const baseLogger = {
    level: opts.logStream ? 'trace' : config.logLevel,
    redact: { paths: logRedactPaths, censor: '[redacted]' },
    serializers: logSerializers,
  };
  const logger = opts.logStream
    ? { ...baseLogger, stream: opts.logStream }
    : (opts.logger ?? {
        ...baseLogger,
        ...(config.env === 'development' && process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}),
      });
  const { trustProxy } = config;
  const app = Fastify({
    logger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    // TRUST_PROXY: hops (the nth address from the right of X-Forwarded-For), or the proxies' ranges.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors Fastify meets before any route (a malformed %-escape in the path) use the envelope too.
    // What Node's parser refuses before a request exists (431 headers too large) answers in the envelope too.
    clientErrorHandler,
    frameworkErrors: (error, request, reply) => {
      const badUrl = error.code === 'FST_ERR_BAD_URL';
      const message = badUrl ? 'This address is not valid: check the link for a broken %-escape.' : 'The request could not be read.';
      void sendError(request, reply as FastifyReply, 400, message);
    },
  }).withTypeProvider<ZodTypeProvider>();

  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT, started by server.ts): before any route, so every route is instrumented.
  await activeTracing()?.instrument(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('readDb', database.read);
  app.decorate('database', database);
  app.decorate('storage', opts.storage ?? (await createStorage(config)));
  if (!opts.storage) app.addHook('onClose', async () => app.storage.close());
  app.decorate('settings', createSettingsCache(database.db));
  app.decorate('changes', await createChangeFeed(database, app.log));
  app.decorate('lifecycle', createLifecycle());
  app.decorate('geoip', await openGeoIp(config.geoipDb));
  app.changes.on('settings', () => app.settings.clear());
  app.addHook('onClose', async () => {
    forgetSettingsCache(app.settings);
    await app.changes.close();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
  });
  // Jobs run after commit; server.ts starts the poller, closing the app lets the running job finish first.
  app.decorate('metrics', createMetrics(database));
  app.decorate('jobs', createJobs(database.db, app.log, { onAttemptFailed: (name, final) => app.metrics.jobAttemptFailed(name, final) }));
  app.addHook('onClose', () => app.jobs.stop());
  registerPurgeJobs(app);
  registerReconciliationCheck(app);
  registerAnalyzeJob(app);
  registerMailDelivery(app);
  registerErrorHandler(app);
  registerMetrics(app, app.metrics, config.metrics.token);
  registerHttpCache(app);

  registerSecurityHeaders(app);

  // JSON answers over 1 KB travel compressed (br or gzip, as the client accepts); built assets are precompressed.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  await app.register(fastifyMultipart, { limits: { fileSize: OFFER_FILE_MAX_BYTES, files: 1, fields: 30, parts: 32 } });

  await app.register(fastifySwagger, openApiOptions);
  // The route map is for developers: off in production unless API_DOCS=true (issue 29).
  if (config.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  registerSessions(app);
  registerGuards(app);
  await app.register(healthRoutes);
  // The outbox holds reset links: never in production, and only for this machine (the route checks the address).
  if (!config.isProduction) await app.register(devMailRoutes);
  await app.register(
    async (api) => {
      api.addHook('preHandler', rejectNulCharacters);
      if (config.apiDocs) api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(siteRoutes);
      await api.register(catalogRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(ledgerRoutes);
      await api.register(cartRoutes);
      await api.register(ordersRoutes);
      await api.register(paymentsRoutes);
      await api.register(generationRoutes);
      await api.register(offersRoutes);
      await api.register(listingsRoutes);
      await api.register(payoutsRoutes, { provider: opts.payoutProvider });
      await api.register(earningsRoutes, { provider: opts.payoutProvider });
      await api.register(chatRoutes);
      await api.register(notificationsRoutes);
      await api.register(passkeysRoutes);
      await api.register(securityRoutes);
      await api.register(reviewsRoutes);
      await api.register(favouritesRoutes);
      await api.register(followsRoutes);
      await api.register(analyticsRoutes);
      await api.register(refundsRoutes);
      await api.register(reportsRoutes);
      await api.register(sellersRoutes);
      await api.register(taxRoutes);
      await api.register(discountsRoutes);
      await api.register(bundlesRoutes);
      await api.register(storefrontsRoutes);
      await api.register(versionsRoutes);
      // Staff calls: every route in this scope declares guard('admin').
      await api.register(
        async (admin) => {
          // After the admin guard (a parent hook): in production, staff without a second factor are refused.
          admin.addHook('preValidation', requireStaffSecondFactor);
          await admin.register(catalogAdminRoutes);
          await admin.register(packsAdminRoutes);
          await admin.register(offersAdminRoutes);
          await admin.register(payoutsAdminRoutes);
          await admin.register(ledgerAdminRoutes);
          await admin.register(disputesAdminRoutes);
          await admin.register(usersAdminRoutes);
          await admin.register(auditAdminRoutes);
          await admin.register(analyticsAdminRoutes);
          await admin.register(jobsAdminRoutes);
          await admin.register(versionsAdminRoutes);
          await admin.register(siteAdminRoutes);
          await admin.register(siteContentAdminRoutes);
          await admin.register(reviewsAdminRoutes);
          await admin.register(refundsAdminRoutes);
          await admin.register(reportsAdminRoutes);
          await admin.register(sellersAdminRoutes);
          await admin.register(taxAdminRoutes);
          await admin.register(discountsAdminRoutes);
          await admin.register(bundlesAdminRoutes);
        },
        { prefix: '/admin' },
      );
    },
    { prefix: '/api' },
  );

  await app.register(storageRoutes);

  registerWebApp(app);
  return app;
}
