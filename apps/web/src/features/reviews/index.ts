/** The reviews feature's public face: the product page's reviews section. */
export { ReviewsSection } from './components/reviews-section';
