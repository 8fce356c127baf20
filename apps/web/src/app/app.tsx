import { type ReactNode, useEffect, useState } from 'react';
import { FullScreenSpinner } from '../components/ui/spinner';
import { ToastProvider, useToast } from '../components/ui/toast';
import { useAuth } from '../features/auth';
import { useCurrencies, useSettings } from '../features/site';
import { currentLanguage } from '../lib/api-client';
import { i18n, loadServerWords } from '../lib/i18n';
import { useTranslation } from '../lib/i18n-runtime';

/** `router`: the app's routes in the browser's BrowserRouter, or in the server's StaticRouter (src/entry-server.tsx). */
function Boot({ router }: { router: ReactNode }) {
  const auth = useAuth();
  const settings = useSettings();
  // Asked at start, beside the auth check: price queries wait for the currency list (SPEC §4 fallback).
  useCurrencies();
  const toast = useToast();
  const { t } = useTranslation();
  // A page the server rendered starts with the words it shows, and the rest of the dictionary arrives
  // a moment later; any other page waits for the words of its language (beside the auth check).
  const [wordsReady, setWordsReady] = useState(() => i18n.hasResourceBundle(currentLanguage()));

  useEffect(() => {
    void loadServerWords().finally(() => setWordsReady(true));
    // The page is interactive from here on (a server-rendered page is hydrated): tests wait for it.
    document.documentElement.dataset.appReady = '';
  }, []);
  useEffect(() => {
    if (settings.isError) toast.error(t('app.settings_error'));
  }, [settings.isError, toast, t]);
  useEffect(() => {
    if (auth.data?.profileFailed) toast.error(t('app.profile_error'));
  }, [auth.data?.profileFailed, toast, t]);

  if (auth.isError) {
    return (
      <div className="fullscreen-message" role="alert">
        {t('app.connection_error')}
      </div>
    );
  }
  // SPEC §2: a full-screen spinner until the authentication state is known.
  if (auth.isPending || !wordsReady) return <FullScreenSpinner />;
  return router;
}

/**
 * The router element is made once by the caller and passed in: Boot re-renders when settings,
 * currencies or auth answer, and that must not re-render the whole page tree below the router.
 */
export function App({ router }: { router: ReactNode }) {
  return (
    <ToastProvider>
      <Boot router={router} />
    </ToastProvider>
  );
}
