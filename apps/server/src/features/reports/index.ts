/** Notice and action's public face (issue 33): the routes; the effect of a decision is read through db/visibility.ts. */
export { reportsAdminRoutes } from './reports.admin-routes';
export { reportsRoutes } from './reports.routes';
