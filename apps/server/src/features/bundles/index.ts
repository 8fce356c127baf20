/** Creator bundles' public face (issue 34): the creator's proposals and the staff review. */
export { bundleLifecycle } from './bundle-states';
export { bundlesAdminRoutes } from './bundles.admin-routes';
export { bundlesRoutes } from './bundles.routes';
