/** Product updates' public face (issue 34): the creator's and buyers' routes, the staff review. */
export { versionsAdminRoutes } from './versions.admin-routes';
export { versionsRoutes } from './versions.routes';
