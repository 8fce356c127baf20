import { useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { staticPageTitle, useStaticPage } from '../../features/site';
import { useTranslation } from '../../lib/i18n-runtime';
import { usePageTitle } from '../../lib/page-title';
import { Component as NotFound } from './not-found';

/**
 * The page's own heading is the one h1: a heading that opens the stored content and repeats the
 * title is left out, and any other h1 in the content becomes an h2.
 */
export function pageBody(title: string, html: string): string {
  const opening = /^\s*<h([1-3])[^>]*>([\s\S]*?)<\/h\1>/i.exec(html);
  const text = (s: string) =>
    s
      .replace(/<[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
  const rest = opening && text(opening[2]!) === text(title) ? html.slice(opening[0].length) : html;
  return rest.replace(/<(\/?)h1(\s|>)/gi, '<$1h2$2');
}

export function Component() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation();
  const page = useStaticPage(id);
  const title = page.data ? staticPageTitle(t, i18n.language, page.data) : undefined;
  usePageTitle(title);
  if (page.isPending) return <Spinner label={t('app.loading')} />;
  if (page.isError) return <NotFound />;
  return (
    <article className="page narrow legal">
      <h1>{title}</h1>
      {/* Sanitized on the server when written: formatting and links only. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: content is sanitized when stored. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: pageBody(page.data.title, page.data.content) }} />
    </article>
  );
}
