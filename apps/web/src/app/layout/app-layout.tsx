import { splitLocale } from '@atelier/shared/i18n/locales';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { authKey, markAccountBlocked, useAuth } from '../../features/auth';
import { CookieConsent } from '../../features/cookie-consent';
import { useLiveEvents } from '../../features/notifications';
import { setGlobalApiHandlers } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-runtime';
import { HydrateWhenVisible } from '../../lib/on-demand';
import { PageTitleProvider } from '../../lib/page-title';
import { useRouteMeta } from '../route-meta';
import { Header } from './header';
import { PageErrorBoundary } from './page-error-boundary';
import { TestModeBanner } from './test-mode-banner';

// Below the fold on every page: the server's HTML shows it, and its code loads when it comes near the
// screen (or is touched or focused), not on the first load.
const footerModule = () => import('./footer');
const Footer = lazy(() => footerModule().then((m) => ({ default: m.Footer })));

/**
 * Loads the parts of the layout that every page shows but whose code comes apart (the footer): the
 * server calls it before it renders, so its one pass has them (src/entry-server.tsx).
 */
export const loadLayoutParts = () => footerModule();

/** The one layout every route shares (SPEC §2): chrome, background, title, scrolling, global API reactions. */
export function AppLayout() {
  const meta = useRouteMeta();
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const bare = meta.background === 'auth';
  // One live stream per signed-in tab (chat, badges, the bell); it closes when the user signs out.
  useLiveEvents(useAuth().data?.user?.id ?? null);

  useEffect(() => {
    document.body.dataset.background = meta.background ?? 'default';
  }, [meta.background]);

  // Navigation scrolls to the top, or to the hash; it runs on every path change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input.
  useEffect(() => {
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.pathname, location.hash]);

  useEffect(() => {
    setGlobalApiHandlers({
      onUnauthenticated: () => {
        const wasSignedIn = queryClient.getQueryData<{ authenticated: boolean }>(authKey)?.authenticated;
        queryClient.setQueryData(authKey, { authenticated: false, user: null });
        if (wasSignedIn) {
          // The router's own path: under a language prefix it is the basename's business.
          const here = splitLocale(window.location.pathname).path + window.location.search;
          navigate(`/login?redirect=${encodeURIComponent(here)}`);
        }
      },
      onCsrfExpired: () => window.location.reload(),
      onEmailNotVerified: () => navigate('/email/verify'),
      onForbidden: () => navigate('/forbidden'),
      onAccountBlocked: () => {
        // Signed out at once: nothing of the account stays on screen or in the cache. A protected
        // page still on screen sends to the blocked screen too (guards.tsx), not to login.
        markAccountBlocked(true);
        queryClient.setQueryData(authKey, { authenticated: false, user: null });
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'site' && q.queryKey[0] !== 'auth' });
        navigate('/account-blocked', { replace: true });
      },
    });
  }, [navigate, queryClient]);

  return (
    <PageTitleProvider fallback={t(meta.title, { defaultValue: meta.title })}>
      <div className="shell">
        <a className="skip-link" href="#main">
          {t('nav.skip_to_content')}
        </a>
        <CookieConsent />
        <TestModeBanner />
        {!bare && <Header />}
        <main id="main" className="main">
          <PageErrorBoundary path={location.pathname} message={t('app.navigation_error')}>
            <Outlet />
          </PageErrorBoundary>
        </main>
        {!bare && <HydrateWhenVisible component={Footer} props={{}} />}
      </div>
    </PageTitleProvider>
  );
}
