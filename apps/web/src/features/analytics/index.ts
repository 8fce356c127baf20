/** Seller analytics' public face: the Sales panel, the creator's or the platform's (the chart loads uPlot on demand). */
export { SalesPanel } from './components/sales-panel';
