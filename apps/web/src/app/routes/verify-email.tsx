import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../features/auth/components/auth-card';
import { VerifyEmailNotice } from '../../features/auth/components/email-verification';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verify_title')}>
      <VerifyEmailNotice />
    </AuthCard>
  );
}
