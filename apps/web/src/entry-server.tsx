import { AsyncLocalStorage } from 'node:async_hooks';
import { de } from '@atelier/shared/i18n/de';
import { en } from '@atelier/shared/i18n/en';
import { splitLocale } from '@atelier/shared/i18n/locales';
import { jsonScriptTag } from '@atelier/shared/preload';
import { dehydrate, type Query } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
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
 * under `/de` (SPEC §2). What a page shows first is asked before the render: the boot queries, and
 * the page's own calls, which the server loaded from the page table before it called render() (the
 * in-process `fetch` answers them from memory). A pass then renders the page; only a query that the
 * page table does not name, or a lazily loaded part not yet there, costs another pass, and `passes`
 * in the result says how many there were (issue 31: the page table's pages render in one).
 * The browser then hydrates the same markup from the same answers (src/main.tsx).
 */

const requestEnv = new AsyncLocalStorage<ServerEnv>();
setServerEnvProvider(() => requestEnv.getStore());
// Pages render from the whole dictionary of their language; the keys a page shows go into its HTML,
// and the browser's first render uses just those (the browser bundles no dictionary, lib/i18n.ts).
i18n.addResourceBundle('en', en);
i18n.addResourceBundle('de', de);
/** The languages a page is rendered in: what its prefix names (an unknown one is not a page the server renders). */
const RENDERED_LOCALES = new Set(['en', 'de']);
const shownWords = new AsyncLocalStorage<Set<string>>();
i18n.onFound = (key) => shownWords.getStore()?.add(key);

/** Enough for the boot check, the page, the lazily loaded footer and what each of them asks. */
const MAX_PASSES = 8;

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
  /** How many times the tree was rendered to get the page (1 when everything it shows was loaded first). */
  passes: number;
  /** The script that carries the query answers to the browser (the routes have no loaders, so no router state). */
  scripts: string;
  /** The page's background (RouteMeta), for `<body data-background>`, which the browser sets itself later. */
  background: string;
};

/** Queries the last pass asked that have no answer yet (an answered or failed query is no longer pending). */
function waitingQueries(queries: Query[]): Query[] {
  return queries.filter((q) => {
    const options = q.options as { enabled?: unknown; queryFn?: unknown };
    return q.state.status === 'pending' && options.enabled !== false && typeof options.queryFn === 'function';
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function render(input: RenderInput): Promise<RenderResult | null> {
  const locale = splitLocale(new URL(input.url, 'http://localhost').pathname).locale ?? 'en';
  if (!RENDERED_LOCALES.has(locale)) return null;
  const env: ServerEnv = { cookies: input.cookies, fetch: input.fetch, seed: Math.floor(Math.random() * 2 ** 31), locale };
  const shown = new Set<string>();
  return requestEnv.run(env, () => shownWords.run(shown, () => renderPage(input, env, shown, locale)));
}

/**
 * Runs `work` with the words of `locale`. The dictionary is one object for the whole server, and
 * renderToString runs to its end without yielding, so no other request renders in between.
 */
function inLanguage<T>(locale: string, work: () => T): T {
  const before = i18n.language;
  i18n.language = locale;
  try {
    return work();
  } finally {
    i18n.language = before;
  }
}

async function renderPage(input: RenderInput, env: ServerEnv, shown: Set<string>, locale: string): Promise<RenderResult> {
  // The address as a browser resolves it (`/page/.` is `/page/`), for the modules and the router
  // alike: a route the loaded modules do not cover would suspend the render, which then throws.
  const parsed = new URL(input.url, 'http://localhost');
  const location = `${parsed.pathname}${parsed.search}`;
  // `/de/products` is /products in German: the prefix is the router's basename, as in the browser.
  const basename = basenameOf(parsed.pathname);
  // The page's modules, and the parts every page shows that load lazily (the footer), are loaded
  // before the first pass, which then renders the page itself.
  const [matches] = await Promise.all([loadPages(parsed.pathname, basename), loadLayoutParts()]);
  const queryClient = createQueryClient();
  const tree = (
    <AppRoot
      queryClient={queryClient}
      router={
        <StaticRouter location={location} basename={basename}>
          <AppRoutes />
        </StaticRouter>
      }
    />
  );
  // What Boot waits for before it shows any page is asked up front, which saves a pass.
  await Promise.all([
    queryClient.prefetchQuery({ ...authQuery, retry: false }),
    queryClient.prefetchQuery({ ...settingsQuery, retry: false }),
    queryClient.prefetchQuery({ ...currenciesQuery, retry: false }),
  ]);
  let html = '';
  let passes = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    // The words of the last pass are the words of the HTML.
    shown.clear();
    passes++;
    renderCount++;
    html = inLanguage(locale, () => renderToString(tree));
    const waiting = waitingQueries(queryClient.getQueryCache().getAll());
    // `<!--$!-->` marks a part that was still loading (a lazy module): render again once it is there.
    if (!waiting.length && !html.includes('<!--$!-->')) break;
    await Promise.all(waiting.map((q) => queryClient.prefetchQuery({ queryKey: q.queryKey, queryFn: q.options.queryFn, retry: false })));
    // Lazily loaded parts (the reviews) resolve between passes.
    await nextTurn();
  }
  const words = inLanguage(locale, () => Object.fromEntries([...shown].sort().map((key) => [key, i18n.t(key)])));
  const state: SsrState = { seed: env.seed, queries: dehydrate(queryClient), words, locale };
  queryClient.clear();
  // As AppLayout reads it: the deepest route that declares a title.
  const background = routeMeta(matches).background ?? 'default';
  return { html, locale, passes, scripts: jsonScriptTag(SSR_STATE_ELEMENT_ID, state), background };
}

/** Renders of the tree since the server started, over all pages (tests read it to count passes). */
let renderCount = 0;
export const renderCountForTests = () => renderCount;
