import { siteSettings } from './fixtures';

/** The API as the server answers it in-process, for tests of the server render (no DOM, no fetch stub). */
export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export const ok = (payload: unknown) => json(200, { status: 'OK', payload });

/**
 * What every page's shell asks for, answered for a guest: not signed in, the settings, one currency
 * (EUR), no static pages, social links or categories. Undefined for any other path.
 */
export function shellAnswer(pathname: string): Response | undefined {
  switch (pathname) {
    case '/api/is-auth':
      return ok({ authenticated: false });
    case '/api/settings':
      return ok(siteSettings());
    case '/api/currencies':
      return ok([{ code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR', decimals: 2 }]);
    case '/api/static-pages':
    case '/api/social-links':
    case '/api/categories':
      return ok([]);
  }
}
