/** VAT on the web (issue 33): the buyer's breakdown and country, the back office's Tax screen. */
export { useBuyerTax } from './api/tax';
export { TaxAdmin } from './components/tax-admin';
export { TaxBreakdown } from './components/tax-breakdown';
export { TaxCountryForm } from './components/tax-country-form';
