import { randomUUID } from 'node:crypto';
import { OFFER_FILE_MAX_BYTES } from '@atelier/shared';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { authRoutes } from './features/auth/auth.routes';
import { catalogRoutes } from './features/catalog/catalog.routes';
import { devMailRoutes } from './features/dev-mail/dev-mail.routes';
import { healthRoutes } from './features/health/health.routes';
import { profileRoutes } from './features/profile/profile.routes';
import { registerWebApp } from './features/seo/web-app';
import { siteRoutes } from './features/site/site.routes';
import { registerErrorHandler, sendError } from './lib/error-handler';
import { registerHttpCache } from './lib/http-cache';
import { rejectNulCharacters } from './lib/input-guard';
import { registerSessions } from './lib/session';
import { createLocalStorage, type Storage } from './lib/storage';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    storage: Storage;
  }
}

export type BuildOptions = {
  config: Config;
  database: Database;
  storage?: Storage;
  /** Overrides the logger (false silences it). */
  logger?: FastifyServerOptions['logger'];
  /** The production logger writing every level to this stream (tests read what would be logged). */
  logStream?: { write(line: string): void };
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
];

/** Request lines carry the path only: query strings may hold signed links or tokens. */
export const logSerializers = {
  req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
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
  const app = Fastify({
    logger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors Fastify meets before any route (a malformed %-escape in the path) use the envelope too.
    frameworkErrors: (error, request, reply) => {
      const badUrl = error.code === 'FST_ERR_BAD_URL';
      const message = badUrl ? 'This address is not valid: check the link for a broken %-escape.' : 'The request could not be read.';
      void sendError(request, reply as FastifyReply, 400, message);
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('db', database.db);
  app.decorate('database', database);
  app.decorate('storage', opts.storage ?? createLocalStorage(config.dataDir));
  registerErrorHandler(app);
  registerHttpCache(app);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
  });

  // JSON answers over 1 KB travel compressed (br or gzip, as the client accepts); built assets are precompressed.
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  await app.register(fastifyMultipart, { limits: { fileSize: OFFER_FILE_MAX_BYTES, files: 1, fields: 30, parts: 32 } });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Atelier API', version: '1.0.0', description: 'Marketplace for digital creative works. Envelope: SPEC.md §7.' },
      servers: [{ url: '/api' }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  registerSessions(app);
  await app.register(healthRoutes);
  if (!config.isProduction) await app.register(devMailRoutes);
  await app.register(
    async (api) => {
      api.addHook('preHandler', rejectNulCharacters);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(siteRoutes);
      await api.register(catalogRoutes);
      await api.register(authRoutes);
      await api.register(profileRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(fastifyStatic, {
    root: app.storage.publicRoot,
    prefix: '/storage/',
    decorateReply: false,
    wildcard: true,
    index: false,
    maxAge: '365d',
    immutable: true,
  });

  registerWebApp(app);
  return app;
}
