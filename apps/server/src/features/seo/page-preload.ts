import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogApiQuery, isProductType, parseCatalogUrl } from '@atelier/shared/catalog-url';
import { RANDOM_PRODUCTS_PER_TYPE } from '@atelier/shared/constants';
import { resolveCurrency, SELECTED_CURRENCY_COOKIE } from '@atelier/shared/currency';
import { type Preload, preloadKey } from '@atelier/shared/preload';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inProcessGet, isReplayable } from './in-process-api';

type Query = Record<string, string | number | (string | number)[] | undefined>;
/** One GET call of the web app; `priced` calls carry prices and are asked in the visitor's currency. */
type Call = { path: string; query?: Query; priced?: boolean };

/** Every page asks these at start (SPEC §4 boot, header, footer). */
const SHELL_CALLS: Call[] = [
  { path: '/api/is-auth' },
  { path: '/api/settings' },
  { path: '/api/currencies' },
  { path: '/api/static-pages' },
  { path: '/api/social-links' },
  { path: '/api/categories' },
];

/** A URL path segment decoded, or null when it is not valid percent-encoding. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const itemPath = (base: string, key: string) => `${base}/${encodeURIComponent(key)}`;

/**
 * The calls a page of the web app makes first, read from its URL the way the app reads it
 * (apps/web/src/app/router.tsx and the route modules), besides the shell calls every page makes.
 */
export function pageCalls(pathname: string, search: URLSearchParams): Call[] {
  if (pathname === '/') return [{ path: '/api/products/random', query: { limit: RANDOM_PRODUCTS_PER_TYPE, product_type: 'prompt' }, priced: true }];
  const products = /^\/products(?:\/([^/]+))?\/?$/.exec(pathname);
  if (products) {
    const param = products[1] === undefined ? undefined : decodeSegment(products[1]);
    if (param === null) return [];
    if (param && !isProductType(param)) return [{ path: `${itemPath('/api/products', param)}/info`, priced: true }];
    return [{ path: '/api/products/catalog', query: catalogApiQuery(parseCatalogUrl(param, search)), priced: true }];
  }
  const item = /^\/(packs|profile|page)\/([^/]+)\/?$/.exec(pathname);
  const key = item ? decodeSegment(item[2]!) : null;
  if (!item || key === null) return [];
  if (item[1] === 'packs') return [{ path: `${itemPath('/api/packs', key)}/info`, priced: true }];
  if (item[1] === 'profile') return [{ path: itemPath('/api/user/public-profile', key) }];
  return [{ path: itemPath('/api/static-pages', key) }];
}

function callUrl(call: Call, currency: string | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value === undefined || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  if (call.priced && currency) params.set('currency', currency);
  const text = params.toString();
  return text ? `${call.path}?${text}` : call.path;
}

type Envelope = { status?: string; payload?: unknown };
const payloadOf = (body: unknown) => (body as Envelope | null)?.payload;

/**
 * Asks the page's first API calls in-process (with the visitor's cookies, so the auth check and the
 * profile are theirs) and returns the answers to put into its HTML. Calls that fail are left out:
 * the web app then asks them itself.
 */
export async function buildPagePreload(app: FastifyInstance, request: FastifyRequest, pathname: string, search: URLSearchParams): Promise<Preload> {
  const get = inProcessGet(app, request);
  const answers: Preload = {};
  const ask = async (call: Call, currency: string | null) => {
    const url = callUrl(call, currency);
    const res = await get(url);
    if (!isReplayable(res.statusCode)) return undefined;
    const body: unknown = res.json();
    answers[preloadKey(url)] = { status: res.statusCode, body, currency: call.priced ? currency : null };
    return body;
  };

  const shell = await Promise.all(SHELL_CALLS.map((call) => ask(call, null)));
  const auth = shell[SHELL_CALLS.findIndex((c) => c.path === '/api/is-auth')];
  const list = payloadOf(shell[SHELL_CALLS.findIndex((c) => c.path === '/api/currencies')]);
  const chosen = Array.isArray(list) ? resolveCurrency(list as { code: string; default: boolean }[], request.cookies[SELECTED_CURRENCY_COOKIE]) : undefined;
  const calls = pageCalls(pathname, search);
  // SPEC §7 is-auth answers `authenticated` beside `status`, not in a payload.
  if ((auth as { authenticated?: boolean } | undefined)?.authenticated) calls.push({ path: '/api/user/profile' });
  await Promise.all(
    // Without a currency list the app does not ask for prices at all.
    calls.map((call) => (call.priced && !chosen ? undefined : ask(call, chosen?.code ?? null))),
  );
  return answers;
}

/** Vite's build manifest: which files a source module needs. */
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }>;

/** The route module of each page the server preloads, as named in the web app's router. */
const ROUTE_MODULES: [RegExp, string][] = [
  [/^\/$/, 'src/app/routes/home.tsx'],
  [/^\/products(\/|$)/, 'src/app/routes/products.tsx'],
  [/^\/packs\//, 'src/app/routes/pack.tsx'],
  [/^\/profile\//, 'src/app/routes/public-profile.tsx'],
  [/^\/page\//, 'src/app/routes/static-page.tsx'],
  [/^\/contact\/?$/, 'src/app/routes/contact.tsx'],
  [/^\/login\/?$/, 'src/app/routes/login.tsx'],
  [/^\/register\/?$/, 'src/app/routes/register.tsx'],
];

/**
 * Reads the web build's manifest once and answers, for a page path, the `<link>` tags that fetch its
 * route module (and what that module imports) while the main bundle is still downloading, and the
 * route's own stylesheets.
 */
export function routePreloader(webDist: string): (pathname: string) => string {
  const file = path.join(webDist, '.vite', 'manifest.json');
  if (!existsSync(file)) return () => '';
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  const inIndex = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    if (into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const dep of manifest[key]!.imports ?? []) walk(dep, into);
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (entryKey) walk(entryKey, inIndex);
  const cache = new Map<string, string>();
  return (pathname) => {
    const key = ROUTE_MODULES.find(([re]) => re.test(pathname))?.[1];
    if (!key || !manifest[key]) return '';
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const needed = new Set<string>();
    walk(key, needed);
    const links: string[] = [];
    for (const k of needed) {
      if (inIndex.has(k)) continue;
      links.push(`<link rel="modulepreload" crossorigin href="/${manifest[k]!.file}">`);
      // A stylesheet, not a preload: a page rendered on the server must be styled at its first paint.
      for (const css of manifest[k]!.css ?? []) links.push(`<link rel="stylesheet" crossorigin href="/${css}">`);
    }
    const html = links.join('');
    cache.set(key, html);
    return html;
  };
}
