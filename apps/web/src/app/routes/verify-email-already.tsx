import { useTranslation } from 'react-i18next';
import { AuthCard, VerifyEmailDone } from '../../features/auth';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.verify_done_title')}>
      <VerifyEmailDone already />
    </AuthCard>
  );
}
