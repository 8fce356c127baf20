import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n-runtime';
import { useSettings, useStaticPages } from '../site';
import { type Consent, injectAnalyticsTag, readConsent, saveConsent } from './consent';

const REOPEN = 'atelier:cookie-settings';

/** The footer's 'Cookie settings': opens the panel again at its preferences, with the current choice. */
export function openCookieSettings() {
  window.dispatchEvent(new Event(REOPEN));
}

/**
 * SPEC §2 cookie consent panel: shown until the visitor chooses; the choice hides it until they
 * reopen it from the footer ('Cookie settings'). 'Customize' lets them turn analytics on or off
 * (issue 18): on is saved as 'all', off as 'custom' (essentials only). It is
 * a bar in the page's flow above the header, not a layer over it, so it never covers a form's submit
 * button or the first content: the page moves down by its height instead.
 */
export function CookieConsent() {
  const { t } = useTranslation();
  const [consent, setConsent] = useState<Consent | null>(readConsent);
  const [customizing, setCustomizing] = useState(false);
  const [details, setDetails] = useState(false);
  const [reopened, setReopened] = useState(false);
  const [analytics, setAnalytics] = useState(consent === 'all');
  const analyticsId = useId();
  const settings = useSettings();
  const pages = useStaticPages();
  const cookiePage = pages.data?.find((p) => p.is_cookie === 1);
  const titleId = useId();
  const detailsId = useId();

  const tag = settings.data?.google_tag ?? '';
  useEffect(() => {
    if (consent === 'all' && tag) injectAnalyticsTag(tag);
  }, [consent, tag]);

  useEffect(() => {
    const reopen = () => {
      const now = readConsent();
      setAnalytics(now === 'all');
      setCustomizing(true);
      setReopened(true);
    };
    window.addEventListener(REOPEN, reopen);
    return () => window.removeEventListener(REOPEN, reopen);
  }, []);

  if (consent && !reopened) return null;

  function choose(value: Consent) {
    const hadAnalytics = readConsent() === 'all';
    saveConsent(value);
    setConsent(value);
    setReopened(false);
    // Scripts already running cannot be taken back: the page starts again without them.
    if (hadAnalytics && value !== 'all') window.location.reload();
  }

  return (
    <section className="cookie-panel" aria-labelledby={titleId} data-testid="cookie-consent">
      <div className="cookie-inner">
        <div className="cookie-text">
          <h2 id={titleId} className="cookie-title">
            {t('cookie.title')}
          </h2>
          <p className="cookie-intro">
            {t('cookie.intro')} {cookiePage && <Link to={`/page/${cookiePage.slug}`}>{t('cookie.policy_link')}</Link>}
          </p>
        </div>
        {customizing && (
          <form
            className="cookie-form"
            aria-label={t('cookie.preferences')}
            onSubmit={(e) => {
              e.preventDefault();
              choose(analytics ? 'all' : 'custom');
            }}
          >
            <div className="cookie-category">
              <label className="cookie-check">
                <input type="checkbox" checked disabled />
                <span>{t('cookie.essentials')}</span>
                <span className="pill">{t('cookie.always_on')}</span>
              </label>
              <button type="button" className="link-button" aria-expanded={details} aria-controls={detailsId} onClick={() => setDetails((d) => !d)}>
                {details ? t('cookie.hide_details') : t('cookie.show_details')}
              </button>
              <p id={detailsId} className="cookie-details" hidden={!details}>
                {t('cookie.essentials_details')}
              </p>
            </div>
            <div className="cookie-category">
              <label className="cookie-check">
                <input type="checkbox" checked={analytics} onChange={(e) => setAnalytics(e.target.checked)} aria-describedby={analyticsId} />
                <span>{t('cookie.analytics')}</span>
              </label>
              <p id={analyticsId} className="cookie-details">
                {t('cookie.analytics_details')}
              </p>
            </div>
            <button type="submit" className="button primary">
              {t('cookie.save_settings')}
            </button>
          </form>
        )}
        <div className="cookie-actions">
          <button type="button" className="button ghost" onClick={() => choose('essential')}>
            {t('cookie.only_essentials')}
          </button>
          {!customizing && (
            <button type="button" className="button ghost" onClick={() => setCustomizing(true)} aria-expanded={customizing}>
              {t('cookie.customize')}
            </button>
          )}
          <button type="button" className="button primary" onClick={() => choose('all')}>
            {t('cookie.accept_all')}
          </button>
        </div>
      </div>
    </section>
  );
}
