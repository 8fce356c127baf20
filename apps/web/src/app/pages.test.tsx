import { fullPagePath, matchPage, PAGE_LIST, type PageName, pageAccess } from '@atelier/shared/pages';
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuestOnly, RequireAuth } from './guards';
import type { RouteMeta } from './route-meta';
import { routes } from './router';

type Found = { name: PageName | undefined; path: string; guard: 'public' | 'guest' | 'signed-in' };

/** Every route of the router that shows a page, with its whole path and the guard around it. */
function pageRoutes(list: RouteObject[], base = '', guard: Found['guard'] = 'public'): Found[] {
  return list.flatMap((route) => {
    const inner = route.element && typeof route.element === 'object' && 'type' in route.element ? route.element.type : undefined;
    const nextGuard = inner === RequireAuth ? 'signed-in' : inner === GuestOnly ? 'guest' : guard;
    const path = route.index ? base : route.path ? (route.path.startsWith('/') ? route.path : `${base.replace(/\/$/, '')}/${route.path}`) : base;
    const own: Found[] =
      route.path === '*' || (!route.path && !route.index) ? [] : [{ name: (route.handle as RouteMeta | undefined)?.name, path, guard: nextGuard }];
    return [...own, ...pageRoutes(route.children ?? [], path, nextGuard)];
  });
}

/** An address of the page: its pattern with each param filled in and each optional one left out. */
const exampleOf = (name: PageName) =>
  fullPagePath(name)
    .replace(/\/:\w+\?/g, '')
    .replace(/:(\w+)/g, 'some-$1') || '/';

describe('the page table (packages/shared/src/pages.ts) is the router', () => {
  it('has an entry for every route of the router, at the same path, behind the guard it names', () => {
    const found = pageRoutes(routes);
    for (const route of found) {
      expect(route.name, `the route ${route.path} has no page table entry`).toBeDefined();
      const name = route.name!;
      expect(route.path, name).toBe(fullPagePath(name));
      expect(route.guard, name).toBe(pageAccess(name));
    }
    expect(found.map((r) => r.name).sort()).toEqual(PAGE_LIST.map((p) => p.name).sort());
  });

  it('matches an address to the same page as the router does, on the server too', () => {
    const addresses = [
      ...PAGE_LIST.map((p) => exampleOf(p.name)),
      '/products/image',
      '/products/aurora-over-fjords/',
      '/email/verify/success',
      '/email/verify/1/abc',
      '/dashboard',
      '/dashboard/orders',
      '/Products',
      '/nowhere',
      '/packs',
      '/packs/a/b',
    ];
    for (const address of addresses) {
      const leaf = matchRoutes(routes, address)?.at(-1)?.route;
      const routerPage = leaf?.path === '*' ? null : ((leaf?.handle as RouteMeta | undefined)?.name ?? null);
      expect(matchPage(address)?.name ?? null, address).toBe(routerPage);
      // Under a language prefix the router's basename takes the prefix off first.
      const prefixed = `/de${address === '/' ? '' : address}`;
      const underLocale = matchRoutes(routes, prefixed, '/de')?.at(-1)?.route;
      expect(matchPage(prefixed)?.name ?? null, prefixed).toBe(
        underLocale?.path === '*' ? null : ((underLocale?.handle as RouteMeta | undefined)?.name ?? null),
      );
    }
  });
});
