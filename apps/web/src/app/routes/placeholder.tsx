import { useMatches } from 'react-router';
import { useTranslation } from '../../lib/i18n-runtime';
import type { RouteMeta } from '../route-meta';

/**
 * A dashboard screen whose feature is not built yet: says so plainly instead of showing a blank page.
 * The tab above already names it, so its heading is for screen readers only.
 */
export function Component() {
  const { t } = useTranslation();
  const matches = useMatches();
  const meta = matches.at(-1)?.handle as RouteMeta | undefined;
  return (
    <section className="dashboard-screen">
      <h2 className="visually-hidden">{meta ? t(meta.title, { defaultValue: meta.title }) : ''}</h2>
      <p className="muted">{t('pages.coming_soon')}</p>
    </section>
  );
}
