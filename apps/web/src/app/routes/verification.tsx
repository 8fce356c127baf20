import { PhoneVerification } from '../../features/auth';
import { useTranslation } from '../../lib/i18n-runtime';

export function Component() {
  const { t } = useTranslation();
  return (
    <section className="page narrow">
      <h1>{t('auth.phone_title')}</h1>
      <div className="panel">
        <PhoneVerification />
      </div>
    </section>
  );
}
