import { useTranslation } from 'react-i18next';
import { AuthCard, LoginForm } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.sign_in')}>
      <LoginForm />
    </AuthCard>
  );
}
