import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import zlib, { brotliCompressSync, gzipSync } from 'node:zlib';
import { de, en, hasNulCharacter, type Locale, splitLocale, type TranslationKey } from '@atelier/shared';
import { matchPage, pageTitleKey } from '@atelier/shared/pages';
import { jsonScriptTag, PRELOAD_ELEMENT_ID, type Preload } from '@atelier/shared/preload';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { publicCache } from '../../lib/http-cache';
import { escapeHtml } from '../../lib/text';
import { buildPagePreload, routePreloader } from './page-preload';
import { isServerRendered, leadImagePreload, type PageRenderer, pageRenderer } from './page-render';
import { listSitemapEntries, type PageMeta, productPageMeta, profilePageMeta, staticPageMeta } from './seo.queries';
import { injectHead, type MissingKind, renderHead, renderMissingHead, withLanguage, withPageTitle } from './seo-head';

const FALLBACK_INDEX = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atelier</title></head><body><div id="root"></div></body></html>';

/** The words of a page's language (the ones the server seeds from); English without a prefix. */
const WORDS: Record<Locale, Record<TranslationKey, string>> = { en, de: { ...en, ...de } };
const wordsOf = (locale: Locale | null) => WORDS[locale ?? 'en'];

/**
 * The title the page table gives the page at this address, in its language, or null for an address
 * no page has and for the English home page. The browser writes the same one after hydration.
 */
function tableTitle(url: string, search: URLSearchParams): string | null {
  const match = matchPage(url);
  if (!match) return null;
  // The English home page keeps the shell's own title, the site's one-line description; in another
  // language it is the page table's ("Startseite"), not the English line.
  if (match.name === 'home' && match.locale === null) return null;
  const key = pageTitleKey(match, search);
  const words: Record<string, string> = wordsOf(match.locale);
  return words[key] ?? key;
}

/** No page at this address, or the item it names does not exist: its 404 page is titled for what is missing. */
type Missing = { missing: MissingKind };

/**
 * The head of the page an address shows: a PageMeta; `{missing}` when no page has this address or the
 * page names an item that does not exist (a 404, issue 18 bug 9); undefined for any other page (the
 * shell's own head); or the address a product that is a pack moves to (its own page, /packs/{slug}).
 */
async function metaForPath(db: Db, urlPath: string): Promise<PageMeta | Missing | undefined | { movedTo: string }> {
  const match = matchPage(urlPath);
  if (!match) return { missing: 'page' };
  const head = match.page.head?.(match.params);
  if (!head) return undefined;
  const kind: MissingKind = head.kind === 'static-page' ? 'page' : head.kind;
  const or = (meta: PageMeta | null) => meta ?? { missing: kind };
  // A key no item can have (too long, a NUL character) is simply not found.
  if (head.key.length > 200 || hasNulCharacter(head.key)) return { missing: kind };
  switch (head.kind) {
    case 'product': {
      const meta = await productPageMeta(db, head.key, 'product');
      if (meta) return meta;
      const pack = await productPageMeta(db, head.key, 'pack');
      return pack ? { movedTo: `${match.locale ? `/${match.locale}` : ''}${pack.canonicalPath}` } : { missing: kind };
    }
    case 'pack':
      return or(await productPageMeta(db, head.key, 'pack'));
    case 'profile':
      return or(await profilePageMeta(db, head.key));
    case 'static-page': {
      const meta = await staticPageMeta(db, head.key);
      if (!meta || match.locale === null || match.locale === 'en') return or(meta);
      // The stored title is the English one; the pages the store opens with have theirs in the dictionary.
      const slug = decodeURIComponent(meta.canonicalPath.slice('/page/'.length));
      const words: Record<string, string> = wordsOf(match.locale);
      return { ...meta, title: words[`static_page.${slug}`] ?? meta.title };
    }
  }
}

function renderSitemap(entries: { path: string; lastModified: Date | null }[], publicUrl: string): string {
  const urls = entries.map((e) => {
    const lastmod = e.lastModified ? `<lastmod>${e.lastModified.toISOString().slice(0, 10)}</lastmod>` : '';
    return `  <url><loc>${escapeHtml(`${publicUrl}${e.path}`)}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * Puts the main stylesheet into the HTML itself: one round trip less before the first paint on a
 * slow network (it is about 5 KB compressed, and the app shares one stylesheet on every page).
 */
export function inlineMainStylesheet(html: string, webDist: string): string {
  return html.replace(/<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[\w.-]+\.css)">/, (tag, file: string) => {
    const full = path.join(webDist, file);
    if (!existsSync(full)) return tag;
    const css = readFileSync(full, 'utf8');
    return css.includes('</') ? tag : `<style>${css}</style>`;
  });
}

/** How long a page waits for its preloaded answers before it is sent without them. */
const PRELOAD_TIMEOUT_MS = 1500;
/** How long a server render may take before the page is sent for the browser to render instead. */
const RENDER_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([work.catch(() => null), timeout]).finally(() => clearTimeout(timer));
}

/** What a page's HTML gets besides its head: links, the rendered app, and answers for the browser. */
type PageParts = { routeLinks: string; imagePreload?: string; appHtml?: string; scripts?: string; background?: string; answers?: Preload };

/**
 * Puts the parts into the HTML. Replacements go through functions: the markup and the answers hold
 * user text, and a string replacement would read "$&" or "$'" in it as patterns.
 */
function assemblePage(html: string, parts: PageParts): string {
  let out = html.replace('</head>', () => `${parts.routeLinks}${parts.imagePreload ?? ''}</head>`);
  if (parts.appHtml) {
    out = out.replace('<div id="root"></div>', () => `<div id="root">${parts.appHtml}</div>`);
    // The body carries the page's background from the first paint (the app sets it later on its own).
    if (parts.background) out = out.replace('<body>', () => `<body data-background="${escapeHtml(parts.background!)}">`);
    // The page is on screen without its code, which only makes it interactive: the code downloads at
    // low priority, so on a slow network the largest image goes first.
    out = out
      .replaceAll('<script type="module" ', '<script type="module" fetchpriority="low" ')
      .replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
  }
  let tail = parts.scripts ?? '';
  if (parts.answers && Object.keys(parts.answers).length) {
    tail += jsonScriptTag(PRELOAD_ELEMENT_ID, parts.answers);
  }
  return tail ? out.replace('</body>', () => `${tail}</body>`) : out;
}

/** The page rendered on the server, or failing that (no renderer, an error, too slow), its preloaded answers. */
async function pageParts(
  app: FastifyInstance,
  request: FastifyRequest,
  renderer: PageRenderer | null,
  url: string,
  pagePath = url,
): Promise<Omit<PageParts, 'routeLinks'>> {
  // An address no page has is rendered too: the app shows its not-found page there (issue 18 bug 9),
  // in the language of its prefix.
  const unknown = matchPage(url) === null;
  if (renderer && (unknown || isServerRendered(url))) {
    const rendered = await withTimeout(
      renderer(app, request).catch((err: unknown) => {
        request.log.error({ err }, 'server rendering failed; the page is sent for the browser to render');
        return null;
      }),
      RENDER_TIMEOUT_MS,
    );
    if (rendered) {
      const { html, scripts, background, failedAnswers } = rendered;
      return { appHtml: html, scripts, background, answers: failedAnswers, imagePreload: leadImagePreload(html) };
    }
  }
  const search = new URLSearchParams(request.url.slice(url.length + 1));
  const preload = await withTimeout(buildPagePreload(app, request, pagePath, search), PRELOAD_TIMEOUT_MS);
  return { answers: preload ?? undefined };
}

/**
 * Sends a page compressed when the browser accepts it: the not-found handler that serves pages is
 * outside the route hooks of @fastify/compress. Brotli at quality 5 takes well under a millisecond here.
 */
function sendCompressed(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  reply.header('vary', 'Cookie, Accept-Encoding');
  if (/\bbr\b/.test(accepted)) {
    return reply.header('content-encoding', 'br').send(brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }));
  }
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 6 }));
  return reply.send(html);
}

/** Pages that only make sense for a signed-in user, or that carry one-time tokens. */
const PRIVATE_PATHS = ['/api/', '/dashboard', '/cart', '/checkout', '/deposit/', '/verification', '/email/', '/reset-password', '/forgot-password'];
const isPrivatePath = (pagePath: string) => PRIVATE_PATHS.some((p) => pagePath === p.replace(/\/$/, '') || pagePath.startsWith(p.endsWith('/') ? p : `${p}/`));

/** English is the language without a prefix (`/en/...` is the same page); German is under `/de`. */
const localePrefix = (locale: Locale) => (locale === 'en' ? '' : `/${locale}`);

/**
 * The language links of a page (issue 31): `hreflang` alternates naming the page in each language and
 * `x-default`, and, unless its head already has one, the canonical link: the page in its language.
 */
export function languageLinks(publicUrl: string, pagePath: string, locale: Locale, withCanonical: boolean): string {
  const at = (l: Locale) => escapeHtml(`${publicUrl}${localePrefix(l)}${pagePath === '/' && l !== 'en' ? '' : pagePath}`);
  const links = (['en', 'de'] as const).map((l) => `<link rel="alternate" hreflang="${l}" href="${at(l)}" />`);
  links.push(`<link rel="alternate" hreflang="x-default" href="${at('en')}" />`);
  if (withCanonical) links.unshift(`<link rel="canonical" href="${at(locale)}" />`);
  return links.join('\n    ');
}

const withHeadLinks = (html: string, links: string) => (links ? html.replace('</head>', () => `    ${links}\n  </head>`) : html);

/**
 * Serves the built SPA (hashed assets with long caching) and, for every other page path, its
 * index.html with the real title, description, canonical link and social tags of the page, so shared
 * links and crawlers see the product without running JavaScript. Also /sitemap.xml and /robots.txt.
 */
export function registerWebApp(app: FastifyInstance) {
  const { config } = app;
  const indexFile = path.join(config.webDist, 'index.html');
  const hasDist = existsSync(indexFile);
  const indexHtml = hasDist ? inlineMainStylesheet(readFileSync(indexFile, 'utf8'), config.webDist) : FALLBACK_INDEX;
  const routeLinks = routePreloader(config.webDist);
  const renderer = hasDist ? pageRenderer(config.webDist) : null;
  const missingShells = (locale: Locale) => {
    const shell = withLanguage(indexHtml, locale, WORDS[locale]['app.description']);
    const head = (kind: MissingKind) => injectHead(shell, renderMissingHead(kind, WORDS[locale]));
    return { page: head('page'), product: head('product'), pack: head('pack'), profile: head('profile') } satisfies Record<MissingKind, string>;
  };
  const missingHtml: Record<Locale, Record<MissingKind, string>> = { en: missingShells('en'), de: missingShells('de') };
  // English keeps the shell's own description (index.html); German has its own.
  const shellOf: Record<Locale, string> = {
    en: indexHtml,
    de: withLanguage(indexHtml, 'de', WORDS.de['app.description']),
  };
  if (hasDist) {
    app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      decorateReply: false,
      // The web build writes .br/.gz copies of its assets (apps/web/vite.config.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  app.get('/sitemap.xml', { config: publicCache(3600), schema: { hide: true } }, async (_request, reply) => {
    const entries = await listSitemapEntries(app.readDb);
    return reply.type('application/xml; charset=utf-8').send(renderSitemap(entries, config.publicUrl));
  });

  app.get('/robots.txt', { config: publicCache(86_400), schema: { hide: true } }, async (_request, reply) => {
    const lines = ['User-agent: *', 'Allow: /', ...PRIVATE_PATHS.map((p) => `Disallow: ${p}`), '', `Sitemap: ${config.publicUrl}/sitemap.xml`, ''];
    return reply.type('text/plain; charset=utf-8').send(lines.join('\n'));
  });

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && url !== '/api' && !url.startsWith('/storage/');
    if (!isPage) {
      const message = url.startsWith('/storage/') ? 'This file does not exist.' : `No API endpoint answers ${request.method} ${url}.`;
      return reply.code(404).send({ status: 'ERROR', message });
    }
    // SPEC §2: `/de/products` is /products in German (the browser renders it): same head, same first answers.
    const { path: pagePath, locale } = splitLocale(url);
    const language = locale ?? 'en';
    const [meta, parts] = await Promise.all([metaForPath(app.readDb, url), pageParts(app, request, renderer, url, pagePath)]);
    // A pack opened as a product: its one address is /packs/{slug} (the query string goes along).
    if (meta && 'movedTo' in meta) return reply.redirect(`${meta.movedTo}${request.url.slice(url.length)}`, 301);
    // The HTML carries the visitor's own answers (auth state, profile): never shared by a cache.
    reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-cache');
    const send = (status: number, html: string) => sendCompressed(request, reply.code(status), html);
    // The app shows its own 404 page, rendered here when the page is; the status tells crawlers not to index it.
    if (meta && 'missing' in meta) return send(404, assemblePage(missingHtml[language][meta.missing], { ...parts, routeLinks: routeLinks(pagePath) }));
    // A page that shows no stored item (the shop, the contact page, /404) gets the page table's title (issue 18).
    const title = meta === undefined ? tableTitle(url, new URLSearchParams(request.url.slice(url.length + 1))) : null;
    const own = shellOf[language];
    // The page's one address in its language, and the same page in every language (issue 31).
    const canonicalPath = meta === undefined ? pagePath : meta.canonicalPath;
    const localized = meta === undefined ? undefined : { ...meta, canonicalPath: `${localePrefix(language)}${meta.canonicalPath}` };
    const shell = localized === undefined ? (title === null ? own : withPageTitle(own, title)) : injectHead(own, renderHead(localized, config.publicUrl));
    const links = isPrivatePath(pagePath) ? '' : languageLinks(config.publicUrl, canonicalPath, language, localized === undefined);
    return send(200, assemblePage(withHeadLinks(shell, links), { ...parts, routeLinks: routeLinks(pagePath) }));
  });
}
