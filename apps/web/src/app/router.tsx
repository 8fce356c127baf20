import { splitLocale } from '@atelier/shared/i18n/locales';
import { PAGE_LIST, type PageName, pageAccess, pageDef } from '@atelier/shared/pages';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { GuestOnly, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import type { RouteMeta } from './route-meta';

type RouteModule = { Component: React.ComponentType };

/** Every page module, loaded on demand (a first visit fetches only what it shows); the page table names them. */
const ROUTE_MODULES = import.meta.glob<RouteModule>(['./routes/*.tsx', '!./routes/*.test.tsx']);

/** The route of one page of the table, with the pages nested in it. */
function pageRoute(name: PageName): RouteObject {
  const page = pageDef(name);
  const load = ROUTE_MODULES[`./routes/${page.module}.tsx`];
  if (!load) throw new Error(`The page "${name}" names src/app/routes/${page.module}.tsx, which does not exist.`);
  const handle: RouteMeta = { name, title: page.title, background: page.background };
  const children = PAGE_LIST.filter((p) => p.parent === name).map((p) => pageRoute(p.name));
  const where = page.path === '' ? { index: true as const } : { path: page.path, ...(children.length ? { children } : {}) };
  return { ...where, handle, lazy: load };
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
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

/**
 * The browser's router. The matched route modules load first, so the first render is the page
 * itself: for a page the server rendered, exactly what the HTML already shows (hydration).
 * A language prefix (`/de`, `/en`) is the basename; the routes themselves have none.
 */
export async function createClientRouter() {
  // SPEC §2's optional language prefix: `/de/products` is /products in German. The prefix is the
  // router's basename, so every link and navigation of the page stays in that language.
  const { locale } = splitLocale(window.location.pathname);
  const basename = locale ? `/${locale}` : undefined;
  const matches = matchRoutes(routes, window.location, basename) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
  // No route has a loader, so there is no loader data to hand over: the matched modules are enough.
  return createBrowserRouter(routes, { basename });
}
