/** VAT, invoices and the One-Stop Shop report (issue 33). */
export { assignInvoiceNumber, issueCreditNote } from './invoices';
export { taxAdminRoutes } from './tax.admin-routes';
export { buyerCardCountrySql, taxOfPurchase, taxOfSignedInPurchase, vatRatesOf } from './tax.queries';
export { taxRoutes } from './tax.routes';
export { type TaxDecision, taxLines, vatInside } from './vat';
export { checkVatNumber } from './vat-number';
