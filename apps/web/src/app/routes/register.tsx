import { useTranslation } from 'react-i18next';
import { AuthCard, RegisterForm } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.create_account')} wide>
      <RegisterForm />
    </AuthCard>
  );
}
