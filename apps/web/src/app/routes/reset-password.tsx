import { AuthCard, ResetPasswordForm } from '../../features/auth';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.reset_title')}>
      <ResetPasswordForm />
    </AuthCard>
  );
}
