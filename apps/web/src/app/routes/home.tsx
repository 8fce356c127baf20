import type { ProductType } from '@atelier/shared';
import { formatNumber } from '@atelier/shared/money';
import { type KeyboardEvent, Suspense, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ProductCarousel, useRandomProducts } from '../../features/catalog';
import { useSettings } from '../../features/site';
import { useTranslation } from '../../lib/i18n-runtime';

/** SPEC §9 home tabs: prompt → Prompts, image → Art, doc → Text. */
const TABS: { type: ProductType; label: string }[] = [
  { type: 'prompt', label: 'home.tab_prompts' },
  { type: 'image', label: 'home.tab_art' },
  { type: 'doc', label: 'home.tab_text' },
];

function Explore() {
  const { t } = useTranslation();
  const [tab, setTab] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const base = useId();
  const current = TABS[tab]!;
  const products = useRandomProducts(current.type);

  function onKey(e: KeyboardEvent) {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (tab + delta + TABS.length) % TABS.length;
    setTab(next);
    refs.current[next]?.focus();
  }

  return (
    <section className="section explore" aria-labelledby={`${base}-title`}>
      <div className="section-head">
        <div>
          <h2 id={`${base}-title`}>{t('home.explore')}</h2>
          <p className="muted">{t('home.explore_text')}</p>
        </div>
        <div className="tabs-pill" role="tablist" aria-label={t('home.explore')} onKeyDown={onKey}>
          {TABS.map((item, i) => (
            <button
              key={item.type}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${i}`}
              aria-selected={i === tab}
              aria-controls={`${base}-panel`}
              tabIndex={i === tab ? 0 : -1}
              onClick={() => setTab(i)}
            >
              {t(item.label)}
            </button>
          ))}
        </div>
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${tab}`} className="explore-panel">
        {products.isPending ? (
          <p className="state-text" role="status">
            {t('home.loading_products')}
          </p>
        ) : products.isError ? (
          <p className="state-text error" role="alert">
            {products.error.message}
          </p>
        ) : products.data.length === 0 ? (
          <p className="state-text">{t('home.no_products')}</p>
        ) : (
          <ProductCarousel products={products.data} label={t(current.label)} />
        )}
      </div>
    </section>
  );
}

const DEAL_STEPS = [
  { seconds: 0.8, label: 'home.deal_step1' },
  { seconds: 2.4, label: 'home.deal_step2' },
  { seconds: 5.1, label: 'home.deal_step3' },
];

const VALUES = [
  { title: 'home.value_commission', text: 'home.value_commission_text', icon: '%' },
  { title: 'home.value_sell', text: 'home.value_sell_text', icon: '→' },
  { title: 'home.value_license', text: 'home.value_license_text', icon: '✓' },
  { title: 'home.value_chat', text: 'home.value_chat_text', icon: '✦' },
];

const JOIN_STEPS = ['home.join_step1', 'home.join_step2', 'home.join_step3'];

export function Component() {
  const { t, i18n } = useTranslation();
  // The commission is the back office's setting, never a number written into the copy.
  const percent = useSettings().data?.commission_percent;
  const valueText = (key: string) =>
    key !== 'home.value_commission_text' ? t(key) : percent === undefined ? t('home.value_commission_text_plain') : t(key, { percent });
  return (
    <div className="home">
      <section className="hero">
        <div className="hero-glow" aria-hidden="true" />
        <p className="eyebrow">{t('home.hero_eyebrow')}</p>
        <h1>{t('home.hero_title')}</h1>
        <p className="hero-text">{t('home.hero_text')}</p>
        <Link className="button primary large" to="/products">
          {t('home.get_started')}
        </Link>
      </section>

      {/* Each boundary hydrates after the first screen's, in slices React can pause (issue 18: no long
          hydration task); nothing here suspends, so the server's HTML and the first render match. */}
      <Suspense fallback={null}>
        <Explore />
      </Suspense>

      <Suspense fallback={null}>
        <section className="section banner" aria-labelledby="banner-title">
          <div className="banner-art" aria-hidden="true">
            <span />
            <span />
            <span />
          </div>
          <div className="banner-copy">
            <h2 id="banner-title">{t('home.banner_title')}</h2>
            <p>{t('home.banner_text')}</p>
            <Link className="button primary" to="/products?type=image">
              {t('home.banner_cta')}
            </Link>
          </div>
        </section>

        <section className="section" aria-labelledby="deal-title">
          <div className="section-head">
            <div>
              <h2 id="deal-title">{t('home.deal_title')}</h2>
              <p className="muted">{t('home.deal_text')}</p>
            </div>
          </div>
          <ol className="deal-steps">
            {DEAL_STEPS.map((s, i) => (
              <li key={s.label} className="deal-step">
                <span className="deal-index">{String(i + 1).padStart(2, '0')}</span>
                <span className="deal-time">{t('home.deal_seconds', { seconds: formatNumber(s.seconds, i18n.language) })}</span>
                <span className="deal-label">{t(s.label)}</span>
                <span className="deal-bar" style={{ '--fill': `${(s.seconds / 5.1) * 100}%` } as React.CSSProperties} aria-hidden="true" />
              </li>
            ))}
          </ol>
        </section>

        <section className="section" aria-labelledby="different-title">
          <h2 id="different-title">{t('home.different_title')}</h2>
          <ul className="value-grid">
            {VALUES.map((v) => (
              <li key={v.title} className="value-card">
                <span className="value-icon" aria-hidden="true">
                  {v.icon}
                </span>
                <h3>{t(v.title)}</h3>
                <p className="muted">{valueText(v.text)}</p>
              </li>
            ))}
          </ul>
          <div className="join">
            <h3>{t('home.join_title')}</h3>
            <ol className="join-steps">
              {JOIN_STEPS.map((key, i) => (
                <li key={key}>
                  <span className="join-index" aria-hidden="true">
                    {i + 1}
                  </span>
                  {t(key)}
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section className="section cta" aria-labelledby="cta-title">
          <h2 id="cta-title">{t('home.cta_title')}</h2>
          <p>{t('home.cta_text')}</p>
          <Link className="button primary large" to="/products">
            {t('home.get_started')}
          </Link>
        </section>
      </Suspense>
    </div>
  );
}
