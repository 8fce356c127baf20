export { catalogAdminRoutes } from './catalog.admin-routes';
export { catalogRoutes } from './catalog.routes';
export { categoriesSeeder, demoCatalogSeeder, demoSignIns, slugify } from './catalog.seed';
export { packsAdminRoutes } from './packs.admin-routes';
