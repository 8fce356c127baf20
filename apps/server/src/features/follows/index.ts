/** Follows' public face: the calls, and the new-work notice the publishing feature sends. */
export { notifyFollowersOfNewWork } from './follows';
export { followsRoutes } from './follows.routes';
