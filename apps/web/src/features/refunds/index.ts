/** Buyer protection on the web: the refund request dialog, a request's thread, the creator's list. */
export { refundKeys, useRefundRequests } from './api/refunds';
export { CreatorRefunds } from './components/creator-refunds';
export { RefundRequestDialog } from './components/refund-request-dialog';
export { RefundThread } from './components/refund-thread';
