/** Offers' public face: the creator's routes, the staff review, and the one way to move an offer. */

export { listingsRoutes } from './listings.routes';
export {
  type CheckedFile,
  checkFormFile,
  isImageType,
  type OfferFileType,
  readFileForm,
  type StoredOfferFile,
  storableFileName,
  storeOfferFile,
  typeOfFileName,
} from './offer-file';
export { canTransition, illegalMoveMessage, OFFER_TRANSITIONS, type OfferActor } from './offer-states';
export { offersAdminRoutes } from './offers.admin-routes';
export { findOwnOffer, moveOffer, type OfferRow, toOffer } from './offers.queries';
export { offersRoutes } from './offers.routes';
