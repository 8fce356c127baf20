import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { useStaticPage } from '../../features/site';
import { Component as NotFound } from './not-found';

export function Component() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const page = useStaticPage(id);
  if (page.isPending) return <Spinner label={t('app.loading')} />;
  if (page.isError) return <NotFound />;
  return (
    <article className="page narrow legal">
      <h1>{page.data.title}</h1>
      {/* Sanitized on the server when written: formatting and links only. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: content is sanitized when stored. */}
      <div className="prose" dangerouslySetInnerHTML={{ __html: page.data.content }} />
    </article>
  );
}
