import type { StaticPageSummary } from '@atelier/shared';
import type { TFunction } from '../../lib/i18n-runtime';

/**
 * A static page's title in the page's language. The stored title is the English one (staff edit it);
 * another language shows `static_page.<slug>` from its dictionary, which has the pages the store
 * opens with, and a page staff add later keeps its stored title there too.
 */
export function staticPageTitle(t: TFunction, language: string, page: Pick<StaticPageSummary, 'slug' | 'title'>): string {
  return language === 'en' ? page.title : t(`static_page.${page.slug}`, { defaultValue: page.title });
}
