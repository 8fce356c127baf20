import { useTranslation } from 'react-i18next';
import { AuthCard, ForgotPasswordForm } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.forgot_title')}>
      <ForgotPasswordForm />
    </AuthCard>
  );
}
