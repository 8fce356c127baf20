import { splitLocale } from '@atelier/shared/i18n/locales';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { GuestOnly, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import type { RouteMeta } from './route-meta';

type Page = () => Promise<{ Component: React.ComponentType }>;

const placeholder: Page = () => import('./routes/placeholder');

/** One route of SPEC §2: its page module loads on demand, so a first visit fetches only what it shows. */
function page(path: string, load: Page, meta: RouteMeta, children?: RouteObject[]): RouteObject {
  return { ...(path === '' ? { index: true as const } : { path, children }), handle: meta, lazy: load };
}

/** Every screen of SPEC §2 in one place, grouped by who may open it. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      page('/', () => import('./routes/home'), { title: 'nav.home', background: 'home' }),
      page('/products/:param?', () => import('./routes/products'), { title: 'products.title' }),
      page('/packs/:slug', () => import('./routes/pack'), { title: 'products.type_pack' }),
      page('/profile/:username', () => import('./routes/public-profile'), { title: 'nav.my_profile', background: 'profile' }),
      page('/contact', () => import('./routes/contact'), { title: 'pages.contact_title' }),
      page('/page/:id', () => import('./routes/static-page'), { title: 'Atelier', background: 'legal' }),
      page('/email/verify/:id/:hash', () => import('./routes/verify-email-link'), { title: 'auth.verify_title', background: 'auth' }),
      page('/email/verify/success', () => import('./routes/verify-email-success'), { title: 'auth.verify_done_title', background: 'auth' }),
      page('/email/verify/already-success', () => import('./routes/verify-email-already'), { title: 'auth.verify_done_title', background: 'auth' }),
      page('/forbidden', () => import('./routes/forbidden'), { title: 'pages.forbidden_title' }),
      page('/404', () => import('./routes/not-found'), { title: 'pages.not_found_title' }),
      {
        element: <GuestOnly />,
        children: [
          page('/login', () => import('./routes/login'), { title: 'auth.sign_in', background: 'auth' }),
          page('/register', () => import('./routes/register'), { title: 'auth.register', background: 'auth' }),
          page('/forgot-password', () => import('./routes/forgot-password'), { title: 'auth.forgot_password', background: 'auth' }),
          page('/reset-password', () => import('./routes/reset-password'), { title: 'auth.reset_title', background: 'auth' }),
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          page('/verification', () => import('./routes/verification'), { title: 'auth.phone_title' }),
          page('/email/verify', () => import('./routes/verify-email'), { title: 'auth.verify_title', background: 'auth' }),
          page('/dashboard', () => import('./routes/dashboard'), { title: 'nav.my_profile' }, [
            page('', placeholder, { title: 'dashboard.my_projects' }),
            page('orders', () => import('./routes/dashboard-orders'), { title: 'dashboard.order_history' }),
            page('contact', () => import('./routes/dashboard-contact'), { title: 'dashboard.contact_information' }),
            page('chat', placeholder, { title: 'dashboard.chat' }),
            page('deposits', () => import('./routes/dashboard-deposits'), { title: 'dashboard.deposits' }),
          ]),
          page('/deposit/create', () => import('./routes/deposit-create'), { title: 'deposit.title' }),
          page('/success-payment', () => import('./routes/success-payment'), { title: 'payment.success_title' }),
          page('/fail-payment', () => import('./routes/fail-payment'), { title: 'payment.failed_title' }),
          page('/processing-payment', () => import('./routes/processing-payment'), { title: 'payment.processing_title' }),
          page('/cart', () => import('./routes/cart'), { title: 'nav.cart' }),
          page('/checkout', () => import('./routes/checkout'), { title: 'cart.checkout_title' }),
        ],
      },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];

/**
 * The browser's router. The matched route modules load first, so the first render is the page
 * itself: for a page the server rendered, exactly what the HTML already shows (hydration).
 * A language prefix (`/de`, `/en`) is the basename; the routes themselves have none.
 */
export async function createClientRouter() {
  // SPEC §2's optional language prefix: `/de/products` is /products in German. The prefix is the
  // router's basename, so every link and navigation of the page stays in that language.
  const { locale } = splitLocale(window.location.pathname);
  const basename = locale ? `/${locale}` : undefined;
  const matches = matchRoutes(routes, window.location, basename) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
  // No route has a loader, so there is no loader data to hand over: the matched modules are enough.
  return createBrowserRouter(routes, { basename });
}
