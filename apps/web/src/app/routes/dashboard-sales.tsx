import { SalesPanel } from '../../features/analytics';

/** The dashboard's Sales tab: the creator's views, sales and earnings (issue 20). */
export function Component() {
  return <SalesPanel scope="seller" />;
}
