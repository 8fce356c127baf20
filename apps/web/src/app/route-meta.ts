import type { PageBackground, PageName } from '@atelier/shared/pages';
import { createContext, useContext } from 'react';

/** What each route carries as its handle, from the page table (packages/shared/src/pages.ts): its name, title key and background. */
export type RouteMeta = {
  name?: PageName;
  title: string;
  /** 'auth' screens hide header and footer (SPEC §2). */
  background?: PageBackground;
};

/** The meta of the page on screen; the router (app/router.tsx) provides it for the layout and the pages. */
export const RouteMetaContext = createContext<RouteMeta>({ title: 'app.name' });

export function useRouteMeta(): RouteMeta {
  return useContext(RouteMetaContext);
}
