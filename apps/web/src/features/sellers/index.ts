/** Trader details on the web (issue 33): the form the gate links to. */
export { sellerDetailsKey, useSellerDetails } from './api/seller-details';
export { SellerDetailsForm } from './components/seller-details-form';
export { StaffSellerDetails } from './components/staff-seller-details';
