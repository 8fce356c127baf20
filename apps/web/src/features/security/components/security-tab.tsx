import { PasskeysSection } from './passkeys-section';

/** The dashboard's Security tab (issue 21). */
export function SecurityTab() {
  return (
    <div className="security-tab">
      <PasskeysSection />
    </div>
  );
}
