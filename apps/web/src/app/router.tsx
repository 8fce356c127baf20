import { splitLocale } from '@atelier/shared/i18n/locales';
import { PAGE_LIST, type PageName, pageAccess, pageDef } from '@atelier/shared/pages';
import { type ComponentType, useMemo } from 'react';
import { matchRoutes, type Params, type RouteObject, useLocation, useRoutes } from 'react-router';
import { onDemand } from '../lib/on-demand';
import { GuestOnly, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { type RouteMeta, RouteMetaContext } from './route-meta';

/**
 * A page module: its component, and optionally `prepare`, which loads the parts the address's
 * params show (a module that splits itself, as /products does into the list and the product page).
 */
type RouteModule = { Component: ComponentType; prepare?: (params: Params) => Promise<unknown> };

/** Every page module, loaded on demand (a first visit fetches only what it shows); the page table names them. */
const ROUTE_MODULES = import.meta.glob<RouteModule>(['./routes/*.tsx', '!./routes/*.test.tsx']);

/** How each page route loads its module; `loadPages` calls it before the first render. */
const PAGE_LOADERS = new WeakMap<RouteObject, (params: Params) => Promise<unknown>>();

/**
 * A page whose module loads on demand. The first render of a page not loaded yet suspends; the router
 * changes pages in a transition, so the page before stays on screen until the next one is there.
 */
function lazyPage(importer: () => Promise<RouteModule>) {
  const module = onDemand(importer);
  function Page() {
    const { Component } = module.read();
    return <Component />;
  }
  return { Page, preload: (params: Params) => module.load().then((m) => m.prepare?.(params)) };
}

/** The route of one page of the table, with the pages nested in it. */
function pageRoute(name: PageName): RouteObject {
  const page = pageDef(name);
  const load = ROUTE_MODULES[`./routes/${page.module}.tsx`];
  if (!load) throw new Error(`The page "${name}" names src/app/routes/${page.module}.tsx, which does not exist.`);
  const handle: RouteMeta = { name, title: page.title, background: page.background };
  const children = PAGE_LIST.filter((p) => p.parent === name).map((p) => pageRoute(p.name));
  const where = page.path === '' ? { index: true as const } : { path: page.path, ...(children.length ? { children } : {}) };
  const { Page, preload } = lazyPage(load);
  const route: RouteObject = { ...where, handle, element: <Page /> };
  PAGE_LOADERS.set(route, preload);
  return route;
}

/**
 * Any other address shows the not-found page where it is (no redirect to /404), so the server's 404
 * answer and the page agree (issue 18 bug 9).
 */
function notFoundRoute(): RouteObject {
  const page = pageRoute('not-found');
  const route: RouteObject = { ...page, path: '*' };
  const load = PAGE_LOADERS.get(page);
  if (load) PAGE_LOADERS.set(route, load);
  return route;
}

/** The top-level pages one guard lets through. */
const pagesFor = (access: ReturnType<typeof pageAccess>) => PAGE_LIST.filter((p) => !p.parent && pageAccess(p.name) === access).map((p) => pageRoute(p.name));

/**
 * Every screen of SPEC §2, built from the page table (packages/shared/src/pages.ts), grouped by who
 * may open it. A new page is a table entry plus its module under ./routes; nothing here changes.
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      ...pagesFor('public'),
      { element: <GuestOnly />, children: pagesFor('guest') },
      { element: <RequireAuth />, children: pagesFor('signed-in') },
      notFoundRoute(),
    ],
  },
];

/** The meta of the deepest matched route that declares a title. */
export function routeMeta(matches: ReturnType<typeof matchRoutes>): RouteMeta {
  const meta = matches?.map((m) => m.route.handle as RouteMeta | undefined).findLast((h) => h?.title);
  return meta ?? { title: 'app.name' };
}

/**
 * Loads the modules of the pages an address shows, so the first render is the page itself: for a
 * page the server rendered, exactly what the HTML already shows (hydration). Returns the matches.
 */
export async function loadPages(pathname: string, basename?: string) {
  const matches = matchRoutes(routes, pathname, basename);
  await Promise.all((matches ?? []).map(({ route, params }) => PAGE_LOADERS.get(route)?.(params)));
  return matches;
}

/**
 * SPEC §2's optional language prefix: `/de/products` is /products in German. The prefix is the
 * router's basename, so every link and navigation of the page stays in that language.
 */
export function basenameOf(pathname: string): string | undefined {
  const { locale } = splitLocale(pathname);
  return locale ? `/${locale}` : undefined;
}

/**
 * The app's routes, inside the browser's <BrowserRouter> or the server's <StaticRouter>. The
 * declarative router is all the app needs (no route has a loader or an action), at half the code of
 * the data router on every first load (issue 12).
 */
export function AppRoutes() {
  const location = useLocation();
  const meta = useMemo(() => routeMeta(matchRoutes(routes, location)), [location]);
  const element = useRoutes(routes);
  return <RouteMetaContext value={meta}>{element}</RouteMetaContext>;
}
