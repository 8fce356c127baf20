import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OFFER_FILE_MAX_BYTES } from '@atelier/shared';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { authRoutes } from './features/auth/auth.routes';
import { catalogRoutes } from './features/catalog/catalog.routes';
import { healthRoutes } from './features/health/health.routes';
import { siteRoutes } from './features/site/site.routes';
import { registerErrorHandler } from './lib/error-handler';
import { registerHttpCache } from './lib/http-cache';
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
  /** Overrides the logger (tests capture lines with a stream). */
  logger?: FastifyServerOptions['logger'];
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

const FALLBACK_INDEX = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atelier</title></head><body><div id="root"></div></body></html>';

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: { paths: logRedactPaths, censor: '[redacted]' },
      ...(config.env === 'development' && process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}),
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    bodyLimit: config.bodyLimit,
    trustProxy: config.isProduction,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
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
  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(siteRoutes);
      await api.register(catalogRoutes);
      await api.register(authRoutes);
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

  registerWebApp(app, config);
  return app;
}

/** Serves the built SPA: hashed assets with long caching, index.html for every other page path. */
function registerWebApp(app: FastifyInstance, config: Config) {
  const indexFile = path.join(config.webDist, 'index.html');
  const hasDist = existsSync(indexFile);
  const indexHtml = hasDist ? readFileSync(indexFile, 'utf8') : FALLBACK_INDEX;
  if (hasDist) {
    app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && url !== '/api' && !url.startsWith('/storage/');
    if (!isPage) {
      const message = url.startsWith('/storage/') ? 'This file does not exist.' : `No API endpoint answers ${request.method} ${url}.`;
      return reply.code(404).send({ status: 'ERROR', message });
    }
    return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}
