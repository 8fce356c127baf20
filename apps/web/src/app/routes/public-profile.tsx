import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { ContactCreatorButton } from '../../features/chat';
import { DEFAULT_AVATAR, usePublicProfile } from '../../features/profile';
import '../../features/profile/components/profile.css';
import { Component as NotFound } from './not-found';

/** A creator's public page: no e-mail or phone, only what they chose to show. */
export function Component() {
  const { t } = useTranslation();
  const { username = '' } = useParams();
  const profile = usePublicProfile(username);
  if (profile.isPending) return <Spinner label={t('app.loading')} />;
  if (profile.isError) return <NotFound />;
  const p = profile.data;
  return (
    <article className="public-profile">
      <header className="public-profile-head">
        <img className="avatar" src={p.avatar_url_large ?? DEFAULT_AVATAR} alt="" width="120" height="120" />
        <div>
          <h1>
            {p.name} {p.surname}
          </h1>
          <p>@{p.nickname}</p>
          <ContactCreatorButton target={{ recipient_id: p.id }} className="button primary" />
        </div>
      </header>
      <section className="panel">
        <h2>{t('profile.about')}</h2>
        <p>{p.about_me || t('profile.no_about')}</p>
        <div className="stat-row">
          {p.hourly_rate > 0 && <p>{t('profile.rate', { rate: p.hourly_rate.toFixed(2) })}</p>}
          <p>{t('profile.works', { count: p.products_count })}</p>
          <p>{t('profile.member_since', { date: new Date(p.created_at * 1000).toLocaleDateString('en-GB', { timeZone: 'UTC' }) })}</p>
        </div>
      </section>
    </article>
  );
}
