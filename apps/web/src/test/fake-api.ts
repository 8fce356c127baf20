import { vi } from 'vitest';
import { checkAnswer } from './contract-check';
import { siteSettings } from './fixtures';
import { jsonAnswer } from './render';

type Handler = (req: { url: URL; method: string; body: unknown; headers: Record<string, string> }) => Response | Promise<Response>;
export type FakeCall = { method: string; path: string; body: unknown; headers: Record<string, string> };

const ok = (payload: unknown, extra: object = {}) => jsonAnswer(200, { status: 'OK', payload, ...extra });

export { ok as okAnswer };

/** The answers every page asks for: settings, one currency (EUR). */
export const siteAnswers: Record<string, Handler> = {
  'GET /api/settings': () => ok(siteSettings()),
  'GET /api/currencies': () =>
    ok([
      { code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 },
      { code: 'JPY', symbol: '¥', value: 162, default: false, name: 'JPY', decimals: 0 },
    ]),
  'GET /api/visitor/country': () => ok({ country: null, source: null }),
};

/**
 * Stubs fetch with a little API: `routes` maps "METHOD /path" to a handler. Unknown calls answer
 * 404. Returns the list of calls made, for asserting what was sent. Every 2xx JSON answer is checked
 * against its route's schema in the OpenAPI document (contract-check.ts); a fixture that drifted from
 * it fails the test, naming the route and what is wrong.
 */
export function fakeApi(routes: Record<string, Handler>) {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the XSRF cookie.
  document.cookie = 'XSRF-TOKEN=t; path=/';
  const calls: FakeCall[] = [];
  const all = { ...siteAnswers, ...routes };
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    // JSON as parsed; a multipart form (an upload) as the FormData itself.
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body instanceof FormData ? init.body : undefined;
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ method, path: url.pathname, body, headers });
    const handler = all[`${method} ${url.pathname}`];
    if (!handler) return jsonAnswer(404, { status: 'ERROR', message: 'Not found.' });
    const answer = await handler({ url, method, body, headers });
    await checkAnswer(method, url.pathname, answer);
    return answer;
  });
  return calls;
}

type FetchStub = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Wraps a test's own fetch stub so its 2xx JSON answers are held to the contract as fakeApi's are:
 * `vi.stubGlobal('fetch', contractChecked(async (url, init) => …))`.
 */
export function contractChecked(stub: FetchStub): FetchStub {
  return async (input, init = {}) => {
    const answer = await stub(input, init);
    await checkAnswer(init.method ?? 'GET', new URL(input, 'http://localhost').pathname, answer);
    return answer;
  };
}
