import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode, useEffect, useState } from 'react';
import { FullScreenSpinner } from '../components/ui/spinner';
import { ToastProvider, useToast } from '../components/ui/toast';
import { useAuth } from '../features/auth';
import { useCurrencies, useSettings } from '../features/site';
import { currentLanguage } from '../lib/api-client';
import { i18n, loadServerWords } from '../lib/i18n';
import { I18nextProvider } from '../lib/i18n-runtime';
import { setHydrating } from '../lib/on-demand';

/** `router`: the app's routes in the browser's BrowserRouter, or in the server's StaticRouter (src/entry-server.tsx). */
function Boot({ router }: { router: ReactNode }) {
  const auth = useAuth();
  const settings = useSettings();
  // Asked at start, beside the auth check: price queries wait for the currency list (SPEC §4 fallback).
  useCurrencies();
  const toast = useToast();
  // A page the server rendered starts with the words it shows, and the rest of the dictionary arrives
  // a moment later; any other page waits for the words of its language (beside the auth check).
  const [wordsReady, setWordsReady] = useState(() => i18n.hasResourceBundle(currentLanguage()));

  useEffect(() => {
    void loadServerWords().finally(() => setWordsReady(true));
    // The page is interactive from here on (a server-rendered page is hydrated): tests wait for it.
    document.documentElement.dataset.appReady = '';
    // Parts shown from now on (a page opened by a link) render at once, not when they come into view.
    setHydrating(false);
  }, []);
  useEffect(() => {
    if (settings.isError) toast.error('Could not load settings from the server.');
  }, [settings.isError, toast]);
  useEffect(() => {
    if (auth.data?.profileFailed) toast.error('Failed to load user data. Please try again.');
  }, [auth.data?.profileFailed, toast]);

  if (auth.isError) {
    return (
      <div className="fullscreen-message" role="alert">
        Could not connect to the server. Please try again later.
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

/**
 * The whole tree, as the server renders it (src/entry-server.tsx, in a StaticRouter) and the browser
 * hydrates it (src/main.tsx, in a BrowserRouter): one copy, since hydration needs the two to match.
 */
export function AppRoot({ queryClient, router }: { queryClient: QueryClient; router: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <App router={router} />
        </I18nextProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
