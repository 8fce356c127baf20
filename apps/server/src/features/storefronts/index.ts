/** Storefronts (issue 34): the routes, and what a shared link of a profile shows (features/seo). */
export { storefrontsRoutes } from './storefronts.routes';
