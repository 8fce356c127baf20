import { useSettings } from '../../features/site';
import { useTranslation } from '../../lib/i18n-runtime';

/**
 * Every page of a start whose money is the sandbox's (PAYMENT_PROVIDER or PAYOUT_PROVIDER=sandbox
 * beyond a local start) says so above the header. It is in the page's flow, so it never covers the
 * header's controls, and it is in the server-rendered HTML too: the settings answer is asked at boot.
 */
export function TestModeBanner() {
  const { t } = useTranslation();
  const testMode = useSettings().data?.test_mode;
  if (!testMode) return null;
  return (
    <p className="test-mode-banner" role="note">
      <strong>{t('app.test_mode')}</strong> <span>{t('app.test_mode_detail')}</span>
    </p>
  );
}
