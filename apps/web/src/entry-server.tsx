import { AsyncLocalStorage } from 'node:async_hooks';
import { de } from '@atelier/shared/i18n/de';
import { en } from '@atelier/shared/i18n/en';
import { splitLocale } from '@atelier/shared/i18n/locales';
import { jsonScriptTag } from '@atelier/shared/preload';
import { dehydrate, type QueryClient, QueryErrorResetBoundary, skipToken } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppRoot } from './app/app';
import { loadLayoutParts } from './app/layout/app-layout';
import { AppRoutes, basenameOf, loadPages, routeMeta } from './app/router';
import { authQuery } from './features/auth';
import { currenciesQuery, settingsQuery } from './features/site';
import { i18n } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { type ServerEnv, setServerEnvProvider } from './lib/ssr-env';
import { SSR_STATE_ELEMENT_ID, type SsrState } from './lib/ssr-state';

/**
 * Server rendering of the web app (built with `vite build --ssr`, loaded by the API server's
 * features/seo/web-app.ts), in the page's language: English without a prefix or under `/en`, German
 * under `/de` (SPEC §2).
 *
 * One pass (issue 31): the server loads what the page table names for the page (its calls and the
 * shell's) before it calls render(), and the in-process `fetch` answers them from memory. The tree is
 * then rendered once, with React's prerender, which waits for what the page shows: a query the page
 * renders suspends until its answer is there (already loaded, so at once), and a lazily loaded part
 * until its code is; no part is left for the browser to render (React error #419), and the tree is
 * never rendered again from the top. The browser hydrates the same markup from the same answers
 * (src/main.tsx).
 */

const requestEnv = new AsyncLocalStorage<ServerEnv>();
setServerEnvProvider(() => requestEnv.getStore());
// Pages render from the whole dictionary of their language; the keys a page shows go into its HTML,
// and the browser's first render uses just those (the browser bundles no dictionary, lib/i18n.ts).
i18n.addResourceBundle('en', en);
i18n.addResourceBundle('de', de);
// The language is the request's: renders of pages in different languages may run at the same time.
Object.defineProperty(i18n, 'language', { get: () => requestEnv.getStore()?.locale ?? 'en', set: () => {}, configurable: true });
const shownWords = new AsyncLocalStorage<Set<string>>();
i18n.onFound = (key) => shownWords.getStore()?.add(key);

/** The languages a page is rendered in: what its prefix names (an unknown one is not a page the server renders). */
const RENDERED_LOCALES = new Set(['en', 'de']);
/** A render that takes longer is given up (the server sends the page for the browser to render before that). */
const RENDER_LIMIT_MS = 10_000;

export type RenderInput = {
  /** Path and query of the page. */
  url: string;
  cookies: Record<string, string>;
  /** Answers an API GET in-process with the visitor's cookies. */
  fetch: (url: string) => Promise<Response>;
};

export type RenderResult = {
  /** The markup that goes inside <div id="root">. */
  html: string;
  /** The page's language (its `<html lang>`). */
  locale: string;
  /** How many times the tree was rendered from the top for this page: one. */
  passes: number;
  /** The script that carries the query answers to the browser (the routes have no loaders, so no router state). */
  scripts: string;
  /** The page's background (RouteMeta), for `<body data-background>`, which the browser sets itself later. */
  background: string;
};

/**
 * The query client of one server render. A query the page renders waits for its answer (it suspends,
 * and the prerender waits) instead of rendering as loading; a disabled one stays as the browser will
 * first show it. A failed answer is shown as the page shows an error (see KeepErrorsInPlace), asked once.
 */
function serverQueryClient(): QueryClient {
  const client = createQueryClient();
  const defaults = client.defaultQueryOptions.bind(client);
  client.defaultQueryOptions = ((options: Parameters<typeof defaults>[0]) => {
    const defaulted = defaults(options);
    const enabled = defaulted.enabled === undefined || defaulted.enabled === true;
    if (enabled && defaulted.queryFn && defaulted.queryFn !== skipToken) {
      defaulted.suspense = true;
      defaulted.retry = false;
      defaulted.retryOnMount = false;
    }
    return defaulted;
  }) as typeof client.defaultQueryOptions;
  return client;
}

type ResetBoundary = { isReset: () => boolean; clearReset: () => void; reset: () => void };

/**
 * With `suspense`, TanStack Query throws a failed query's error to the nearest error boundary; on the
 * server the page shows it in place instead (a product not found), as the browser does with the same
 * answer. The boundary reports itself always reset, so no error is thrown.
 */
function keepErrorsInPlace(boundary: ResetBoundary) {
  boundary.isReset = () => true;
  boundary.clearReset = () => {};
}

/** Renders of the tree from the top since the server started, over all pages (tests count them). */
let renderCount = 0;
export const renderCountForTests = () => renderCount;

export async function render(input: RenderInput): Promise<RenderResult | null> {
  const locale = splitLocale(new URL(input.url, 'http://localhost').pathname).locale ?? 'en';
  if (!RENDERED_LOCALES.has(locale)) return null;
  const env: ServerEnv = { cookies: input.cookies, fetch: input.fetch, seed: Math.floor(Math.random() * 2 ** 31), locale };
  const shown = new Set<string>();
  return requestEnv.run(env, () => shownWords.run(shown, () => renderPage(input, env, shown, locale)));
}

async function renderPage(input: RenderInput, env: ServerEnv, shown: Set<string>, locale: string): Promise<RenderResult> {
  // The address as a browser resolves it (`/page/.` is `/page/`), for the modules and the router
  // alike: a route the loaded modules do not cover would suspend the render, which then throws.
  const parsed = new URL(input.url, 'http://localhost');
  const location = `${parsed.pathname}${parsed.search}`;
  // `/de/products` is /products in German: the prefix is the router's basename, as in the browser.
  const basename = basenameOf(parsed.pathname);
  // The page's modules, and the parts every page shows that load lazily (the footer), are loaded first.
  const [matches] = await Promise.all([loadPages(parsed.pathname, basename), loadLayoutParts()]);
  const queryClient = serverQueryClient();
  // What Boot waits for before it shows any page is asked up front (its answers were loaded already).
  await Promise.all([
    queryClient.prefetchQuery({ ...authQuery, retry: false }),
    queryClient.prefetchQuery({ ...settingsQuery, retry: false }),
    queryClient.prefetchQuery({ ...currenciesQuery, retry: false }),
  ]);
  const tree = (
    <QueryErrorResetBoundary>
      {(boundary) => {
        keepErrorsInPlace(boundary);
        return (
          <AppRoot
            queryClient={queryClient}
            router={
              <StaticRouter location={location} basename={basename}>
                <AppRoutes />
              </StaticRouter>
            }
          />
        );
      }}
    </QueryErrorResetBoundary>
  );
  renderCount++;
  const html = await prerenderHtml(tree);
  const words = Object.fromEntries([...shown].sort().map((key) => [key, i18n.t(key)]));
  const state: SsrState = { seed: env.seed, queries: dehydrate(queryClient), words, locale };
  queryClient.clear();
  // As AppLayout reads it: the deepest route that declares a title.
  const background = routeMeta(matches).background ?? 'default';
  return { html, locale, passes: 1, scripts: jsonScriptTag(SSR_STATE_ELEMENT_ID, state), background };
}

/** The whole page as HTML once everything it shows is there; an error in rendering fails the render. */
async function prerenderHtml(tree: ReactNode): Promise<string> {
  let failed: unknown = null;
  const { prelude } = await prerenderToNodeStream(tree, {
    signal: AbortSignal.timeout(RENDER_LIMIT_MS),
    // Every part inline, where it stands: a large part is otherwise written apart and moved into place
    // by an inline script, which the site's Content-Security-Policy (script-src 'self') does not run.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (err) => {
      failed ??= err;
    },
  });
  let html = '';
  for await (const chunk of prelude) html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  // A part that failed would be left for the browser to render (React error #419): the whole page goes to the browser instead.
  if (failed) throw failed;
  return html;
}
