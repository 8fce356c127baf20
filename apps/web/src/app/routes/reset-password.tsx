import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../features/auth/components/auth-card';
import { ResetPasswordForm } from '../../features/auth/components/password-recovery';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.reset_title')}>
      <ResetPasswordForm />
    </AuthCard>
  );
}
