import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Asks the API in-process on behalf of a page request: GET only, with the visitor's cookies and
 * address, so the auth check, the profile and the rate limits are theirs.
 */
export function inProcessGet(app: FastifyInstance, request: FastifyRequest) {
  // The user agent too: a page view is counted as the visitor's, and a bot's is not (features/analytics).
  const headers = {
    accept: 'application/json',
    'user-agent': request.headers['user-agent'] ?? '',
    ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
  };
  return (url: string) => app.inject({ method: 'GET', url, headers, remoteAddress: request.ip });
}

/** An answer the browser may take from the page instead of asking: not empty, and not one worth asking again (5xx, 429). */
export function isReplayable(status: number): boolean {
  return status !== 204 && status !== 429 && status < 500;
}
