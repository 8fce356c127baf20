import { useTranslation } from 'react-i18next';
import { AuthCard, VerifyEmailLink } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verify_title')}>
      <VerifyEmailLink />
    </AuthCard>
  );
}
