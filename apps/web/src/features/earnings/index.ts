/** The earnings feature's public face (issue 19): the creator's Earnings tab. Import only this file. */

export { earningsKeys } from './api/earnings';
export { EarningsTab } from './components/earnings-tab';
