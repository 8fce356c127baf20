/** The offers feature's public face (the creator's side: My projects, offers and payouts): import only this file. */

export type { PayoutBody } from './api/offers';
/** The signed-in creator's offers; the dashboard shows its creator tabs once there is one (issue 31). */
export { useOffers } from './api/offers';
export type { Contact, PayoutMethod } from './components/contact-details-form';
/** The dialog frame (focus inside, Escape closes, focus returns); the back office's confirmations use it too. */
export { Modal } from './components/modal';
export { MyProjects } from './components/my-projects';
/** The offer payout's contact and payment steps, reused by the withdrawal of earnings (issue 19). */
export { PayoutContactDialog, PayoutPaymentDialog } from './components/payout-dialogs';
