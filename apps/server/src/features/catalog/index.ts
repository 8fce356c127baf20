export { catalogAdminRoutes } from './catalog.admin-routes';
export { listProducts, visibleProductsByIds } from './catalog.queries';
export { catalogRoutes } from './catalog.routes';
export { categoriesSeeder, demoCatalogSeeder, demoSignIns } from './catalog.seed';
export { packsAdminRoutes } from './packs.admin-routes';
