import { useTranslation } from '../../lib/i18n-runtime';
import { useRouteMeta } from '../route-meta';

/**
 * A dashboard screen whose feature is not built yet: says so plainly instead of showing a blank page.
 * The tab above already names it, so its heading is for screen readers only.
 */
export function Component() {
  const { t } = useTranslation();
  const meta = useRouteMeta();
  return (
    <section className="dashboard-screen">
      <h2 className="visually-hidden">{t(meta.title, { defaultValue: meta.title })}</h2>
      <p className="muted">{t('pages.coming_soon')}</p>
    </section>
  );
}
