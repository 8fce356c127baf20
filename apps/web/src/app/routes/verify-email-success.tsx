import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../features/auth/components/auth-card';
import { VerifyEmailDone } from '../../features/auth/components/email-verification';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verify_done_title')}>
      <VerifyEmailDone />
    </AuthCard>
  );
}
