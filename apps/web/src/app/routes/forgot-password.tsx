import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../features/auth/components/auth-card';
import { ForgotPasswordForm } from '../../features/auth/components/password-recovery';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.forgot_title')}>
      <ForgotPasswordForm />
    </AuthCard>
  );
}
