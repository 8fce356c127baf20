import { prepareNumberFormats } from '@atelier/shared/money';
import { hydrate as fillQueryCache } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppRoot } from './app/app';
import { AppRoutes, basenameOf, loadPages } from './app/router';
import './styles.css';
import { currentLanguage } from './lib/api-client';
import { i18n } from './lib/i18n';
import { setHydrating } from './lib/on-demand';
import { createQueryClient } from './lib/query-client';
import { takeScriptJson } from './lib/script-json';
import { setPageSeed } from './lib/ssr-env';
import { SSR_STATE_ELEMENT_ID, type SsrState } from './lib/ssr-state';

async function start() {
  const container = document.getElementById('root')!;
  const queryClient = createQueryClient();
  const ssr = takeScriptJson<SsrState>(SSR_STATE_ELEMENT_ID);
  // The server renders a page in its address's language (`/de/...`, else English); a visitor who chose
  // another language on an address without a prefix gets a browser render.
  const hydrate = ssr !== null && currentLanguage() === (ssr.locale ?? 'en');
  if (ssr) setPageSeed(ssr.seed);
  setHydrating(hydrate);
  // The answers and words the server rendered with: the first render shows what the HTML shows.
  if (hydrate) {
    fillQueryCache(queryClient, ssr.queries);
    i18n.addResourceBundle(ssr.locale, ssr.words);
    void i18n.changeLanguage(ssr.locale);
  }
  // The matched page modules load first, so the first render is the page itself: for a page the
  // server rendered, exactly what the HTML already shows (hydration).
  const basename = basenameOf(window.location.pathname);
  // The number formats' set-up runs in a task of its own while the page modules load, not inside hydration.
  const formatsReady = new Promise<void>((resolve) =>
    setTimeout(() => {
      prepareNumberFormats(i18n.language);
      resolve();
    }, 0),
  );
  await Promise.all([loadPages(window.location.pathname, basename), formatsReady]);
  const tree = (
    <AppRoot
      queryClient={queryClient}
      router={
        <BrowserRouter basename={basename}>
          <AppRoutes />
        </BrowserRouter>
      }
    />
  );
  if (hydrate) hydrateRoot(container, tree);
  else createRoot(container).render(tree);
}

void start();
