import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../features/auth/components/auth-card';
import { LoginForm } from '../../features/auth/components/login-form';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.sign_in')}>
      <LoginForm />
    </AuthCard>
  );
}
