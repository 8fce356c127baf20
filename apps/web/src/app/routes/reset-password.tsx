import { useTranslation } from 'react-i18next';
import { AuthCard, ResetPasswordForm } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.reset_title')}>
      <ResetPasswordForm />
    </AuthCard>
  );
}
