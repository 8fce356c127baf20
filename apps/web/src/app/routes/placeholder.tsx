import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import type { RouteMeta } from '../route-meta';

/** A screen whose feature is not built yet: says so plainly instead of showing a blank page. */
export function Component() {
  const { t } = useTranslation();
  const matches = useMatches();
  const meta = matches.at(-1)?.handle as RouteMeta | undefined;
  return (
    <section className="page narrow">
      <h1>{meta ? t(meta.title, { defaultValue: meta.title }) : ''}</h1>
      <p className="muted">{t('pages.coming_soon')}</p>
    </section>
  );
}
