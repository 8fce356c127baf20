import { SalesPanel } from '../../features/analytics';

/** The back office's analytics: every sale on the platform and the commission it earned (issue 20). */
export function Component() {
  return <SalesPanel scope="platform" />;
}
