import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { serveEmbeddedBackups } from './backup';
import { type Config, ConfigError, loadConfig } from './config';
import { type Database, openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { builtTemplateVersion, copyDbTemplate, type TemplateUse } from './db/template';
import { startMetricsServer } from './lib/metrics';
import { startTracing } from './lib/tracing';
import { seedDatabase } from './seeders';

/** On shutdown, the listener closes only after this long without a new connection. */
const QUIET_BEFORE_CLOSE_MS = 250;

/** A problem the operator can fix, printed as one clear sentence instead of a stack trace. */
class StartError extends Error {}

async function openAndMigrate(config: Config): Promise<{ database: Database; template: TemplateUse | null }> {
  const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${path.join(config.dataDir, 'db')}`;
  let database: Database;
  let template: TemplateUse | null = null;
  try {
    // A first start on the embedded database copies the one the build made, instead of creating it.
    if (!config.databaseUrl) {
      template = await copyDbTemplate({ pgliteDir: path.join(config.dataDir, 'db'), demo: config.seedDemo, version: builtTemplateVersion });
    }
    database = await openDatabase({ url: config.databaseUrl, ...config.database, pgliteDir: path.join(config.dataDir, 'db') });
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message?.split('\n')[0]?.slice(0, 200) ?? 'unknown error';
    throw new StartError(
      `Cannot open ${where} (${reason}). ${config.databaseUrl ? 'Check that the server runs and the URL is right.' : 'The folder may be damaged or belong to another program: move it away to start with a new database, or point DATA_DIR elsewhere.'}`,
    );
  }
  try {
    await runMigrations(database);
  } catch (err) {
    await database.close().catch(() => {});
    throw new StartError(`Cannot prepare ${where}: ${(err as Error).message?.split('\n')[0]?.slice(0, 200)}. Is it a database this version of Atelier made?`);
  }
  return { database, template };
}

export type RunningApp = {
  app: FastifyInstance;
  database: Database;
  shutdown: (signal: string) => Promise<number>;
  /** The metrics listener's address (METRICS_PORT), or null when it is off (the default). */
  metricsAddress: AddressInfo | null;
};

/**
 * Opens the database, seeds what is missing, listens, and returns a shutdown that drains: on a signal
 * the server keeps answering for `shutdownGraceMs` (readiness says 503, answers carry
 * `Connection: close`), then stops accepting, lets in-flight requests finish within
 * `shutdownTimeoutMs`, and only then closes the database.
 */
export async function startServer(config: Config, opts: { logStream?: { write(line: string): void } } = {}): Promise<RunningApp> {
  const { database, template } = await openAndMigrate(config);
  const app = await buildApp({ config, database, logStream: opts.logStream });
  // `npm run backup` copies the embedded database through the running server (see backup.ts).
  if (database.kind === 'pglite') {
    try {
      app.addHook('onClose', await serveEmbeddedBackups(config.dataDir, database));
    } catch (err) {
      // A DATA_DIR path too long for a socket: the server runs, and a backup needs it stopped.
      app.log.warn(`npm run backup cannot reach this server (${(err as NodeJS.ErrnoException).code ?? 'error'}): stop it before a backup`);
    }
  }
  // A test path configured on a start others can reach (the sandbox, demo data) is said at every start.
  for (const warning of config.warnings) app.log.warn(warning);
  if (template?.used) app.log.info("database created from the build's template");
  else if (template?.reason === 'stale') app.log.info("the build's database template is from other code: creating the database");
  const seeded = await seedDatabase(app.db, app.storage, { demo: config.seedDemo, fromTemplate: template?.used ? template.seeders : undefined });
  if (seeded.ran.length) app.log.info({ seeders: seeded.ran }, 'seed data created');
  // Demo accounts exist only on a local, non-production start (SEED_DEMO), so printing them there is safe.
  for (const account of seeded.demoAccounts) app.log.info(`Demo account: ${account.email} / ${account.password} (${account.role})`);

  // What the drain waits for: no request in flight, and no new connection for a quiet moment. Only
  // then is the listener closed, since connections still waiting in the accept queue would be reset.
  let inFlight = 0;
  let lastConnectionAt = Date.now();
  app.server.on('connection', () => {
    lastConnectionAt = Date.now();
  });
  // Counted until the response's socket work is over: a hijacked reply (a live stream) never reaches
  // onResponse, so that hook would keep it in flight for ever.
  app.addHook('onRequest', async (_request, reply) => {
    inFlight += 1;
    reply.raw.once('close', () => {
      inFlight -= 1;
    });
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  let closing: Promise<number> | null = null;
  const shutdown = (signal: string) => {
    closing ??= (async () => {
      app.log.info({ signal }, 'shutting down: draining requests');
      // Live streams end here, with a retry hint, so their clients reconnect to another server.
      app.lifecycle.drain();
      await sleep(config.shutdownGraceMs);
      const giveUpAt = Date.now() + config.shutdownTimeoutMs;
      while ((inFlight > 0 || Date.now() - lastConnectionAt < QUIET_BEFORE_CLOSE_MS) && Date.now() < giveUpAt) await sleep(25);
      const timer = setTimeout(() => {
        app.log.error('requests still running at the shutdown time limit; closing their connections');
        app.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      timer.unref();
      let code = 0;
      try {
        await app.close();
      } catch (err) {
        app.log.error({ err }, 'error while shutting down');
        code = 1;
      }
      clearTimeout(timer);
      await metricsServer?.close();
      await database.close().catch(() => {
        code = 1;
      });
      return code;
    })();
    return closing;
  };

  await app.listen({ host: config.host, port: config.port });
  // Metrics on their own port (off unless METRICS_PORT is set), on loopback unless METRICS_HOST says otherwise.
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | null = null;
  if (config.metrics.port !== undefined) {
    metricsServer = await startMetricsServer(app.metrics, { host: config.metrics.host, port: config.metrics.port });
    app.log.info(`metrics at http://${config.metrics.host}:${metricsServer.address.port}/metrics`);
  }
  // Jobs (mail delivery, receipts, expiries) run on every app server; closing the app stops them.
  app.jobs.start();
  app.log.info(`Atelier is serving ${config.publicUrl} (database: ${database.kind})`);
  return { app, database, shutdown, metricsAddress: metricsServer?.address ?? null };
}

/**
 * The production start: `node apps/server/dist/server.js`, or `npm start`, which runs this in its own
 * process (scripts/start.mjs), so a signal to either PID reaches these handlers.
 */
export async function main() {
  let running: RunningApp;
  let tracing: ReturnType<typeof startTracing> = null;
  try {
    const config = loadConfig();
    // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
    tracing = startTracing({ endpoint: config.tracing.endpoint, serviceName: config.tracing.serviceName });
    running = await startServer(config);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof StartError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const stop = (signal: string) =>
    void running
      .shutdown(signal)
      .then(async (code) => {
        // The last spans go out before the process does (bounded: the exporter has its own timeout).
        await tracing?.shutdown().catch(() => {});
        return code;
      })
      .then((code) => process.exit(code));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const entry = process.argv[1] ? path.resolve(process.argv[1]) : '';
if (entry && (entry.endsWith(`${path.sep}server.js`) || entry.endsWith(`${path.sep}server.ts`))) {
  main().catch((err) => {
    console.error(`Atelier could not start: ${(err as Error).message?.split('\n')[0]}`);
    process.exit(1);
  });
}
