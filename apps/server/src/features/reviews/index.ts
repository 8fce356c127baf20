/** Reviews' public face: the routes, and the first reviews for the product page's structured data. */
export { reviewsAdminRoutes } from './reviews.admin-routes';
export { listReviews, setReviewRemoved } from './reviews.queries';
export { reviewsRoutes } from './reviews.routes';
