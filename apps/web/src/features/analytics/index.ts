/** Seller analytics' public face: the report hooks and the Sales tab's report (the chart loads uPlot on demand). */
export { csvUrl, usePlatformAnalytics, useSellerAnalytics } from './api/analytics';
export { SalesReport } from './components/sales-report';
