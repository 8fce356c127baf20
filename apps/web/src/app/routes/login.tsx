import { AuthCard, LoginForm } from '../../features/auth';
import { PasskeySignIn } from '../../features/security';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('auth.sign_in')}>
      <LoginForm />
      <PasskeySignIn />
    </AuthCard>
  );
}
