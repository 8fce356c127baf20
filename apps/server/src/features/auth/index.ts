export { createStaffAccount } from './auth.queries';
export { authRoutes } from './auth.routes';
