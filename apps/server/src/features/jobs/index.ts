export { jobsAdminRoutes } from './jobs.admin-routes';
