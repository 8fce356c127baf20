import { useTranslation } from 'react-i18next';
import { AuthCard, VerifyEmailNotice } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verify_title')}>
      <VerifyEmailNotice />
    </AuthCard>
  );
}
