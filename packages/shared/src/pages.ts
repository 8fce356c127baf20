import { catalogApiQuery, creatorWorksApiQuery, isProductType, parseCatalogUrl, parseCreatorWorksUrl } from './catalog-url';
import { RANDOM_PRODUCTS_PER_TYPE } from './constants';
import { type Locale, splitLocale } from './i18n/locales';

/**
 * Every page of the web app (SPEC §2) in one table. The web router builds its routes from it
 * (apps/web/src/app/router.tsx) and the server reads it to know, for a page address, whether to render
 * it, which API answers to put into its HTML, which head to give it and which code to link
 * (apps/server/src/features/seo). A page added here is a route in the browser and a page the server
 * knows at once; nothing else lists pages.
 */

/** Query parameters of one API call; undefined and empty values are left out of the URL. */
export type CallQuery = Record<string, string | number | (string | number)[] | undefined>;

/** One GET call a page makes first; `priced` calls carry prices and are asked in the visitor's currency. */
export type PageCall = { path: string; query?: CallQuery; priced?: boolean };

/** Which stored item a page shows, for the server to write its title, description and picture into the head. */
export type PageHead = { kind: 'product' | 'pack' | 'profile' | 'static-page'; key: string };

/** The params of a matched page, decoded (as React Router decodes them); an optional one that is absent is undefined. */
export type PageParams = Record<string, string | undefined>;

export type PageBackground = 'default' | 'home' | 'auth' | 'legal' | 'profile';

export type PageDef = {
  /**
   * React Router path pattern without the language prefix (`/products/:param?`); for a page nested
   * in a `parent`, relative to the parent's path, '' being the parent's index page.
   */
  path: string;
  /** The page this one shows inside (its route is a child route). */
  parent?: string;
  /** Module under apps/web/src/app/routes/ that exports the page's `Component`. */
  module: string;
  /**
   * The module under apps/web/src/app/routes/ that this address shows inside `module`, when the page
   * splits itself in two (the product list and the product page share /products/:param?): each
   * address downloads only its own part, and the server names that part in its HTML.
   */
  part?: (params: PageParams) => string;
  /** Translation key (or plain text) of the page's title. */
  title: string;
  /** A title key that depends on the address (the list of one product type), else `title`. */
  titleOf?: (params: PageParams, search: URLSearchParams) => string | undefined;
  /** 'auth' screens hide header and footer (SPEC §2). */
  background?: PageBackground;
  /**
   * Who may open it: anyone, only a guest (signed-in visitors are sent on), or only a signed-in
   * visitor. A child page inherits its parent's.
   */
  access?: 'public' | 'guest' | 'signed-in';
  /**
   * Rendered on the server: the storefront pages a guest or a crawler opens first. Pages that redirect
   * in the browser (sign-in, guest-only) are left to the browser.
   */
  ssr?: boolean;
  /** The page's own first API calls, read from its URL as the page reads it (besides the calls every page makes). */
  preload?: (params: PageParams, search: URLSearchParams) => PageCall[];
  /** The stored item the page shows, when it shows one. */
  head?: (params: PageParams) => PageHead | undefined;
};

const enc = encodeURIComponent;
/** /products/:param? — a product type (or nothing) is the list; anything else is a product id or slug. */
const productKey = (param: string | undefined) => (param && !isProductType(param) ? param : undefined);

export const PAGES = {
  // Storefront: what a guest or a crawler opens first, rendered on the server.
  home: {
    path: '/',
    module: 'home',
    title: 'nav.home',
    background: 'home',
    ssr: true,
    preload: () => [{ path: '/api/products/random', query: { limit: RANDOM_PRODUCTS_PER_TYPE, product_type: 'prompt' }, priced: true }],
  },
  products: {
    path: '/products/:param?',
    module: 'products',
    part: ({ param }) => (productKey(param) ? 'products-page' : 'products-list'),
    title: 'products.title',
    // The list of one type is titled for it (/products/image: 'Images'); a product names its own.
    titleOf: ({ param }, search) => {
      if (productKey(param)) return undefined;
      const { type } = parseCatalogUrl(param, search);
      return type ? `products.type_${type}` : undefined;
    },
    ssr: true,
    preload: ({ param }, search) => {
      const key = productKey(param);
      if (key)
        return [
          { path: `/api/products/${enc(key)}/info`, priced: true },
          { path: `/api/products/${enc(key)}/related`, priced: true },
        ];
      return [{ path: '/api/products/catalog', query: catalogApiQuery(parseCatalogUrl(param, search)), priced: true }];
    },
    head: ({ param }) => {
      const key = productKey(param);
      return key ? { kind: 'product', key } : undefined;
    },
  },
  pack: {
    path: '/packs/:slug',
    module: 'pack',
    title: 'products.type_pack',
    ssr: true,
    preload: ({ slug }) => [{ path: `/api/packs/${enc(slug!)}/info`, priced: true }],
    head: ({ slug }) => ({ kind: 'pack', key: slug! }),
  },
  'public-profile': {
    path: '/profile/:username',
    module: 'public-profile',
    title: 'nav.my_profile',
    background: 'profile',
    ssr: true,
    preload: ({ username }, search) => [
      { path: `/api/user/public-profile/${enc(username!)}` },
      // The creator's storefront (issue 34): banner, headline, links, featured works, followers and sales.
      { path: `/api/creators/${enc(username!)}/storefront`, priced: true },
      { path: '/api/products/catalog', query: creatorWorksApiQuery(parseCreatorWorksUrl(username!, search)), priced: true },
    ],
    head: ({ username }) => ({ kind: 'profile', key: username! }),
  },
  contact: { path: '/contact', module: 'contact', title: 'pages.contact_title', ssr: true },
  // Issue 34: what each licence tier permits (personal, commercial, extended), readable before buying.
  licence: { path: '/licences/:tier', module: 'licence', title: 'licences.page_title', background: 'legal', ssr: true },
  transparency: { path: '/transparency', module: 'transparency', title: 'reports.transparency_title' },
  'static-page': {
    path: '/page/:id',
    module: 'static-page',
    title: 'Atelier',
    background: 'legal',
    ssr: true,
    preload: ({ id }) => [{ path: `/api/static-pages/${enc(id!)}` }],
    head: ({ id }) => ({ kind: 'static-page', key: id! }),
  },
  forbidden: { path: '/forbidden', module: 'forbidden', title: 'pages.forbidden_title', ssr: true },
  'not-found': { path: '/404', module: 'not-found', title: 'pages.not_found_title', ssr: true },
  // Where a blocked user lands the moment staff block them (issue 18 bug 3).
  'account-blocked': { path: '/account-blocked', module: 'account-blocked', title: 'pages.account_blocked_title' },

  // Links from e-mails: open to anyone, rendered in the browser.
  'verify-email-link': { path: '/email/verify/:id/:hash', module: 'verify-email-link', title: 'auth.verify_title', background: 'auth' },
  'verify-email-success': { path: '/email/verify/success', module: 'verify-email-success', title: 'auth.verify_done_title', background: 'auth' },
  'verify-email-already': { path: '/email/verify/already-success', module: 'verify-email-already', title: 'auth.verify_done_title', background: 'auth' },

  // Only for guests.
  login: { path: '/login', module: 'login', title: 'auth.sign_in', background: 'auth', access: 'guest' },
  register: { path: '/register', module: 'register', title: 'auth.register', background: 'auth', access: 'guest' },
  'forgot-password': { path: '/forgot-password', module: 'forgot-password', title: 'auth.forgot_password', background: 'auth', access: 'guest' },
  'reset-password': { path: '/reset-password', module: 'reset-password', title: 'auth.reset_title', background: 'auth', access: 'guest' },

  // Only for a signed-in visitor.
  verification: { path: '/verification', module: 'verification', title: 'auth.phone_title', access: 'signed-in' },
  'verify-email': { path: '/email/verify', module: 'verify-email', title: 'auth.verify_title', background: 'auth', access: 'signed-in' },
  dashboard: { path: '/dashboard', module: 'dashboard', title: 'nav.my_profile', access: 'signed-in' },
  // The index is the creator's projects, or for someone who has offered nothing yet the buyer's Library (issue 31).
  'dashboard-projects': { parent: 'dashboard', path: '', module: 'dashboard-projects', title: 'dashboard.my_projects' },
  // Where a buyer starts selling: My projects with "Create new offer", before the creator tabs appear.
  'dashboard-sell': { parent: 'dashboard', path: 'projects', module: 'dashboard-sell', title: 'dashboard.my_projects' },
  'dashboard-orders': { parent: 'dashboard', path: 'orders', module: 'dashboard-orders', title: 'dashboard.order_history' },
  'dashboard-favourites': { parent: 'dashboard', path: 'favourites', module: 'dashboard-favourites', title: 'favourites.title' },
  'dashboard-sales': { parent: 'dashboard', path: 'sales', module: 'dashboard-sales', title: 'sales.title' },
  'dashboard-contact': { parent: 'dashboard', path: 'contact', module: 'dashboard-contact', title: 'dashboard.contact_information' },
  'dashboard-chat': { parent: 'dashboard', path: 'chat', module: 'dashboard-chat', title: 'dashboard.chat' },
  'dashboard-deposits': { parent: 'dashboard', path: 'deposits', module: 'dashboard-deposits', title: 'dashboard.deposits' },
  'dashboard-statement': { parent: 'dashboard', path: 'statement', module: 'dashboard-statement', title: 'dashboard.statement' },
  'dashboard-earnings': { parent: 'dashboard', path: 'earnings', module: 'dashboard-earnings', title: 'dashboard.earnings' },
  'dashboard-security': { parent: 'dashboard', path: 'security', module: 'dashboard-security', title: 'dashboard.security' },
  'dashboard-refunds': { parent: 'dashboard', path: 'refunds', module: 'dashboard-refunds', title: 'refunds.creator_title' },
  'dashboard-reports': { parent: 'dashboard', path: 'reports', module: 'dashboard-reports', title: 'reports.statements_title' },
  'dashboard-seller-details': { parent: 'dashboard', path: 'seller-details', module: 'dashboard-seller-details', title: 'sellers.title' },
  'dashboard-discounts': { parent: 'dashboard', path: 'discounts', module: 'dashboard-discounts', title: 'discounts.title' },
  'dashboard-bundles': { parent: 'dashboard', path: 'bundles', module: 'dashboard-bundles', title: 'bundles.title' },
  'dashboard-storefront': { parent: 'dashboard', path: 'storefront', module: 'dashboard-storefront', title: 'storefront.title' },
  'deposit-create': { path: '/deposit/create', module: 'deposit-create', title: 'deposit.title', access: 'signed-in' },
  'success-payment': { path: '/success-payment', module: 'success-payment', title: 'payment.success_title', access: 'signed-in' },
  'fail-payment': { path: '/fail-payment', module: 'fail-payment', title: 'payment.failed_title', access: 'signed-in' },
  'processing-payment': { path: '/processing-payment', module: 'processing-payment', title: 'payment.processing_title', access: 'signed-in' },
  cart: { path: '/cart', module: 'cart', title: 'nav.cart', access: 'signed-in' },
  checkout: { path: '/checkout', module: 'checkout', title: 'cart.checkout_title', access: 'signed-in' },

  // The back office (issue 10): signed-in staff only (the layout sends anyone else to /forbidden),
  // never rendered on the server; each section's code loads only once staff open it.
  admin: { path: '/admin', module: 'admin', title: 'admin.title', access: 'signed-in' },
  'admin-offers': { parent: 'admin', path: '', module: 'admin-offers', title: 'admin.nav_review' },
  'admin-payouts': { parent: 'admin', path: 'payouts', module: 'admin-payouts', title: 'admin.nav_payouts' },
  'admin-refunds': { parent: 'admin', path: 'refunds', module: 'admin-refunds', title: 'admin.nav_refunds' },
  'admin-reports': { parent: 'admin', path: 'reports', module: 'admin-reports', title: 'reports.queue_title' },
  'admin-money': { parent: 'admin', path: 'money', module: 'admin-money', title: 'admin.nav_money' },
  'admin-tax': { parent: 'admin', path: 'tax', module: 'admin-tax', title: 'tax.admin_title' },
  'admin-catalog': { parent: 'admin', path: 'catalog', module: 'admin-catalog', title: 'admin.nav_catalog' },
  'admin-users': { parent: 'admin', path: 'users', module: 'admin-users', title: 'admin.nav_users' },
  'admin-site': { parent: 'admin', path: 'site', module: 'admin-site', title: 'admin.nav_site' },
  'admin-messages': { parent: 'admin', path: 'messages', module: 'admin-messages', title: 'admin.nav_messages' },
  'admin-audit': { parent: 'admin', path: 'audit', module: 'admin-audit', title: 'admin.nav_audit' },
  'admin-jobs': { parent: 'admin', path: 'jobs', module: 'admin-jobs', title: 'admin.nav_jobs' },
  'admin-analytics': { parent: 'admin', path: 'analytics', module: 'admin-analytics', title: 'admin.nav_analytics' },
  'admin-discounts': { parent: 'admin', path: 'discounts', module: 'admin-discounts', title: 'discounts.title' },
  'admin-bundles': { parent: 'admin', path: 'bundles', module: 'admin-bundles', title: 'bundles.review_title' },
} satisfies Record<string, PageDef>;

export type PageName = keyof typeof PAGES;

/** The table with each entry typed as a PageDef (the literal types of PAGES are only for the names). */
export const PAGE_LIST: readonly (PageDef & { name: PageName })[] = Object.entries(PAGES).map(([name, page]) => ({
  ...(page as PageDef),
  name: name as PageName,
}));

export function pageDef(name: PageName): PageDef {
  return PAGES[name];
}

/** The page's whole path pattern, its parents' paths included (`/dashboard/orders`). */
export function fullPagePath(name: PageName): string {
  const page = pageDef(name);
  if (!page.parent) return page.path;
  const base = fullPagePath(page.parent as PageName);
  return page.path ? `${base.replace(/\/$/, '')}/${page.path}` : base;
}

/** The page, then its parent, and so on up. */
export function pageChain(name: PageName): PageName[] {
  const parent = pageDef(name).parent as PageName | undefined;
  return parent ? [name, ...pageChain(parent)] : [name];
}

/** Who may open the page: its own rule or its parent's. */
export function pageAccess(name: PageName): NonNullable<PageDef['access']> {
  const rules = pageChain(name).map((n) => pageDef(n).access);
  return rules.find(Boolean) ?? 'public';
}

type Segment = { static: string } | { param: string };
type Compiled = { name: PageName; segments: Segment[]; score: number };

/**
 * Each page's pattern as segments, an optional segment spelled out as two patterns, ranked as React
 * Router ranks them: a static segment beats a param, so `/email/verify/success` wins over
 * `/email/verify/:id/:hash`'s shape and `/products` over nothing.
 */
function compile(): Compiled[] {
  const out: Compiled[] = [];
  for (const { name } of PAGE_LIST) {
    const parts = fullPagePath(name).split('/').filter(Boolean);
    let variants: string[][] = [[]];
    for (const part of parts) {
      const optional = part.endsWith('?');
      const bare = optional ? part.slice(0, -1) : part;
      variants = variants.flatMap((v) => (optional ? [v, [...v, bare]] : [[...v, bare]]));
    }
    for (const v of variants) {
      const segments: Segment[] = v.map((p) => (p.startsWith(':') ? { param: p.slice(1) } : { static: p.toLowerCase() }));
      const score = segments.reduce((s, seg) => s + ('static' in seg ? 10 : 3), 0) + (pageDef(name).path === '' ? 2 : 0);
      out.push({ name, segments, score });
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

let compiled: Compiled[] | undefined;

function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    // React Router keeps a param that is not valid percent-encoding as it is.
    return value;
  }
}

export type PageMatch = {
  name: PageName;
  page: PageDef;
  params: PageParams;
  /** The language prefix the address had (SPEC §2: `/de/products`), or null. */
  locale: Locale | null;
};

/**
 * The page an address shows, matched as the web router matches it: the optional language prefix
 * first, then the patterns (case-insensitive, a trailing slash allowed). Null for an address no page
 * has (the app shows its 404 page).
 */
export function matchPage(pathname: string): PageMatch | null {
  const { locale, path } = splitLocale(pathname);
  const parts = path.split('/').filter(Boolean);
  compiled ??= compile();
  for (const { name, segments } of compiled) {
    if (segments.length !== parts.length) continue;
    const params: PageParams = {};
    const fits = segments.every((seg, i) => {
      if ('static' in seg) return decodeParam(parts[i]!).toLowerCase() === seg.static;
      params[seg.param] = decodeParam(parts[i]!);
      return true;
    });
    // An empty segment (`//`) is no param.
    if (fits && !path.includes('//')) return { name, page: pageDef(name), params, locale };
  }
  return null;
}

/** The translation key (or plain text) of the title of the page at this address (issue 18 conformance). */
export function pageTitleKey(match: Pick<PageMatch, 'page' | 'params'>, search: URLSearchParams): string {
  return match.page.titleOf?.(match.params, search) ?? match.page.title;
}
