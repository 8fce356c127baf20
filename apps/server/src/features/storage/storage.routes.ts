import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error';
import { isValidStorageKey, sendStoredFile } from '../../lib/storage';

/**
 * Public files under /storage/<key>, read through the Storage interface whatever the backend, so a
 * file one app server stored is served by every other. Private files have no URL here.
 */
export async function storageRoutes(app: FastifyInstance) {
  app.get('/storage/*', { schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (!isValidStorageKey(key)) throw notFound('This file does not exist.');
    // Stored files are pictures and documents, never pages of this site: an uploaded SVG runs no script here.
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    return sendStoredFile(reply, app.storage, key, { visibility: 'public' });
  });
}
