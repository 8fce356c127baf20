import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveCurrency, SELECTED_CURRENCY_COOKIE } from '@atelier/shared/currency';
import { matchPage, type PageCall, pageChain, pageDef } from '@atelier/shared/pages';
import { type Preload, preloadKey } from '@atelier/shared/preload';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inProcessGet, isReplayable } from './in-process-api';

/** Every page asks these at start (SPEC §4 boot, header, footer). */
const SHELL_CALLS: PageCall[] = [
  { path: '/api/is-auth' },
  { path: '/api/settings' },
  { path: '/api/currencies' },
  { path: '/api/static-pages' },
  { path: '/api/social-links' },
  { path: '/api/categories' },
];

/**
 * The calls a page of the web app makes first, as its entry in the page table reads them from its
 * URL (packages/shared/src/pages.ts), besides the shell calls every page makes.
 */
export function pageCalls(pathname: string, search: URLSearchParams): PageCall[] {
  const match = matchPage(pathname);
  return match?.page.preload?.(match.params, search) ?? [];
}

function callUrl(call: PageCall, currency: string | null): string {
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
  const ask = async (call: PageCall, currency: string | null) => {
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
  if ((payloadOf(auth) as { authenticated?: boolean } | undefined)?.authenticated) calls.push({ path: '/api/user/profile' });
  await Promise.all(
    // Without a currency list the app does not ask for prices at all.
    calls.map((call) => (call.priced && !chosen ? undefined : ask(call, chosen?.code ?? null))),
  );
  return answers;
}

/** Vite's build manifest: which files a source module needs. */
type Manifest = Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }>;

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
    const match = matchPage(pathname);
    if (!match) return '';
    const part = pageDef(match.name).part?.(match.params);
    const key = part ? `${match.name} ${part}` : match.name;
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    // The page's module and those of the pages it shows inside (the dashboard around its tabs), and
    // the part of its module this address shows (the product page, not the list).
    const needed = new Set<string>();
    for (const name of pageChain(match.name)) walk(`src/app/routes/${pageDef(name).module}.tsx`, needed);
    if (part) walk(`src/app/routes/${part}.tsx`, needed);
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
