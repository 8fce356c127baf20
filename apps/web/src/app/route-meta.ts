import type { PageBackground, PageName } from '@atelier/shared/pages';

/** What each route carries as its handle, from the page table (packages/shared/src/pages.ts): its name, title key and background. */
export type RouteMeta = {
  name?: PageName;
  title: string;
  /** 'auth' screens hide header and footer (SPEC §2). */
  background?: PageBackground;
};
