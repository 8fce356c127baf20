import { parseCreatorWorksUrl } from '@atelier/shared/catalog-url';
import { useId, useRef } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { Pagination, ProductCard, RatingStars, SORTS, SortSelect, useCreatorWorks } from '../../features/catalog';
import { ContactCreatorButton } from '../../features/chat';
import { useMoney } from '../../features/currency';
import { FollowButton } from '../../features/favourites';
import { DEFAULT_AVATAR, usePublicProfile } from '../../features/profile';
import { ReportLink } from '../../features/reports';
import { StorefrontBanner, StorefrontIntro, StorefrontShowcase, useStorefront } from '../../features/storefronts';
import { useTranslation } from '../../lib/i18n-runtime';
import '../../features/profile/components/profile.css';
import { usePageTitle } from '../../lib/page-title';
import { Component as NotFound } from './not-found';

/** The profile's own address for a page and sort of its works (defaults left out, as in the shop). */
function worksUrl(username: string, page: number, sort: string): string {
  const q = new URLSearchParams();
  if (sort !== SORTS[0].value) q.set('sort', sort);
  if (page > 1) q.set('page', String(page));
  const text = q.toString();
  return `/profile/${encodeURIComponent(username)}${text ? `?${text}` : ''}`;
}

/** A creator's public page: no e-mail or phone, only what they chose to show, and their works. */
export function Component() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const { username = '' } = useParams();
  const profile = usePublicProfile(username);
  // The creator's storefront (issue 34): a profile shows without it while it loads or if it fails.
  const storefront = useStorefront(username).data;
  // A missing profile's tab says so (issue 18 bug 9); this hook runs after the not-found page's own.
  usePageTitle(profile.data ? `${profile.data.name} ${profile.data.surname}` : profile.isError ? t('pages.profile_not_found_title') : undefined);
  if (profile.isPending) return <Spinner label={t('app.loading')} />;
  if (profile.isError) return <NotFound title={t('pages.profile_not_found_title')} />;
  const p = profile.data;
  return (
    <article className="public-profile">
      <StorefrontBanner storefront={storefront} />
      {/* Under a banner the head sits on a card of its own, off the page's dark band. */}
      <header className={`public-profile-head${storefront?.banner_url ? ' has-banner' : ''}`}>
        <img className="avatar" src={p.avatar_url_large ?? DEFAULT_AVATAR} alt="" width="120" height="120" />
        <div>
          <h1>
            {p.name} {p.surname}
          </h1>
          <p>@{p.nickname}</p>
          <StorefrontIntro storefront={storefront} />
        </div>
        <div className="public-profile-actions" data-testid="profile-actions">
          <RatingStars average={p.rating_average} count={p.rating_count} />
          <FollowButton profile={p} profileKey={['public-profile', username]} />
          <ContactCreatorButton target={{ recipient_id: p.id }} className="button primary" />
          <ReportLink subjectType="user" subjectId={p.id} title={`@${p.nickname}`} />
        </div>
      </header>
      <StorefrontShowcase storefront={storefront} />
      <section className="panel">
        <h2>{t('profile.about')}</h2>
        <p>{p.about_me || t('profile.no_about')}</p>
        <dl className="stat-row profile-facts">
          <div>
            <dt>{t('profile.rate_label')}</dt>
            <dd>{p.hourly_rate > 0 ? t('profile.rate', { rate: money.format(p.hourly_rate, 'EUR') }) : t('profile.rate_none')}</dd>
          </div>
          <div>
            <dt>{t('profile.member_label')}</dt>
            <dd>{new Date(p.created_at * 1000).toLocaleDateString(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' })}</dd>
          </div>
          <div>
            <dt>{t('profile.works_label')}</dt>
            <dd>{t('profile.works', { count: p.products_count })}</dd>
          </div>
        </dl>
      </section>
      <CreatorWorks username={username} nickname={p.nickname} />
    </article>
  );
}

/** The creator's published works, paged like the shop and sortable; the state lives in the URL. */
function CreatorWorks({ username, nickname }: { username: string; nickname: string }) {
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const headingId = useId();
  const top = useRef<HTMLElement>(null);
  const params = parseCreatorWorksUrl(username, query);
  const works = useCreatorWorks(params);
  const list = works.data?.payload ?? [];
  const pages = works.data?.meta.pages ?? 0;
  return (
    <section className="panel creator-works scroll-anchor" ref={top} aria-labelledby={headingId}>
      <div className="creator-works-head">
        <h2 id={headingId}>{t('profile.works_heading', { nickname })}</h2>
        <SortSelect value={params.sort} onChange={(sort) => navigate(worksUrl(username, 1, sort), { replace: true, preventScrollReset: true })} />
      </div>
      {works.isError ? (
        <div className="state-block" role="alert">
          <p>{t('products.load_error')}</p>
          <button type="button" className="button" onClick={() => works.refetch()}>
            {t('products.retry')}
          </button>
        </div>
      ) : works.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : list.length === 0 ? (
        <p className="muted">{t('profile.works_empty')}</p>
      ) : (
        <ul className={`product-grid${works.isPlaceholderData ? ' is-stale' : ''}`} data-testid="creator-works">
          {list.map((product) => (
            <li key={product.id}>
              <ProductCard product={product} headingLevel={3} />
            </li>
          ))}
        </ul>
      )}
      <Pagination page={params.page} pages={pages} hrefFor={(page) => worksUrl(username, page, params.sort)} top={top} />
    </section>
  );
}
