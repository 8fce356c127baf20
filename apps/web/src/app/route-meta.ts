/** What each route declares about itself: title key, who may open it, and which background it uses. */
export type RouteMeta = {
  title: string;
  /** 'auth' screens hide header and footer (SPEC §2). */
  background?: 'default' | 'home' | 'auth' | 'legal' | 'profile';
};
