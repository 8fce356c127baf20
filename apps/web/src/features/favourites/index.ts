/** The favourites feature's public face: the heart, and the list for the dashboard tab. */
export { useFavourites } from './api/favourites';
export { FavouriteButton, PENDING_FAVOURITE } from './components/favourite-button';
export { FollowButton } from './components/follow-button';
