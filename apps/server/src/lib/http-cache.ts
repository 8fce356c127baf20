import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export type HttpCachePolicy = {
  /** Seconds a client may reuse the answer without asking; 0 means revalidate every time. */
  maxAge: number;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Marks a public GET route whose answer is the same for every visitor: ETag, Cache-Control, 304. */
    httpCache?: HttpCachePolicy;
  }
}

/** Route config for a public, cacheable GET route. */
export function publicCache(maxAge: number): { httpCache: HttpCachePolicy } {
  return { httpCache: { maxAge } };
}

function matches(ifNoneMatch: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const c = candidate.trim();
    return c === '*' || c.replace(/^W\//, '') === bare;
  });
}

/**
 * One onSend hook for every route that opts in with `config: publicCache(n)`: a weak ETag over the
 * serialized answer, Cache-Control, Vary on the display currency, and 304 when the client's copy is
 * current. Answers that set a cookie or are not 200 are left alone: they depend on the session.
 */
export function registerHttpCache(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    const policy = request.routeOptions.config?.httpCache;
    if (!policy || (request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200) return payload;
    if (reply.hasHeader('set-cookie')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
    reply.header('etag', etag);
    // No stale-while-revalidate: a product hidden or repriced must not linger in browsers for minutes.
    reply.header('cache-control', policy.maxAge > 0 ? `public, max-age=${policy.maxAge}` : 'public, no-cache');
    reply.header('vary', 'X-Currency');
    const ifNoneMatch = request.headers['if-none-match'];
    if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, etag)) {
      reply.code(304);
      reply.removeHeader('content-length');
      reply.removeHeader('content-type');
      return '';
    }
    return payload;
  });
}
