import { AuthCard, VerifyEmailDone } from '../../features/auth';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verify_done_title')}>
      <VerifyEmailDone />
    </AuthCard>
  );
}
