import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { splitLocale } from '@atelier/shared/i18n/locales';
import { matchPage } from '@atelier/shared/pages';
import { type Preload, preloadKey } from '@atelier/shared/preload';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inProcessGet, isReplayable } from './in-process-api';
import { buildPagePreload } from './page-preload';

/** What apps/web/src/entry-server.tsx exports (built by `vite build --ssr` into apps/web/dist-ssr). */
type RenderModule = {
  render(input: {
    url: string;
    cookies: Record<string, string>;
    fetch: (url: string) => Promise<Response>;
  }): Promise<{ html: string; scripts: string; background: string; passes?: number } | null>;
};

export type RenderedPage = {
  /** The app's markup for inside <div id="root">. */
  html: string;
  /** The script carrying the answers the markup was rendered with. */
  scripts: string;
  /** The page's background, for `<body data-background>`. */
  background: string;
  /** How many times the renderer rendered the tree for this page (1: everything it shows was loaded first). */
  passes?: number;
  /**
   * Client errors the render met (a product that does not exist, say). The browser asks those again
   * because failed queries are not handed over, so they go into the page's preload instead.
   */
  failedAnswers: Preload;
};

export type PageRenderer = (app: FastifyInstance, request: FastifyRequest) => Promise<RenderedPage | null>;

/**
 * Whether the page at this address is rendered on the server: the page table marks it `ssr`
 * (packages/shared/src/pages.ts). Under a language prefix (`/de/...`, `/en/...`) it is rendered too,
 * in that language (issue 31).
 */
export function isServerRendered(pathname: string): boolean {
  const match = matchPage(pathname);
  return match !== null && match.page.ssr === true;
}

/** The web app's server renderer, or null when the web app was built without it. */
export function pageRenderer(webDist: string): PageRenderer | null {
  const file = path.join(webDist, '..', 'dist-ssr', 'entry-server.js');
  if (!existsSync(file)) return null;
  let loaded: Promise<RenderModule> | null = null;
  return async (app, request) => {
    loaded ??= import(pathToFileURL(file).href) as Promise<RenderModule>;
    const { render } = await loaded;
    const get = inProcessGet(app, request);
    const failedAnswers: Preload = {};
    // What the page table names for this page (its calls and the shell's) is loaded before the render,
    // which takes it from memory: the page renders in one pass (apps/web/src/entry-server.tsx).
    const address = new URL(request.url, 'http://localhost');
    const answers = await buildPagePreload(app, request, splitLocale(address.pathname).path, address.searchParams);
    const fetchApi = async (url: string) => {
      const known = answers[preloadKey(url)];
      if (known && (known.currency === null || known.currency === new URL(url, 'http://x').searchParams.get('currency'))) {
        if (known.status >= 400) failedAnswers[preloadKey(url)] = known;
        return new Response(JSON.stringify(known.body), { status: known.status, headers: { 'content-type': 'application/json' } });
      }
      const res = await get(url);
      const status = res.statusCode;
      if (status >= 400 && isReplayable(status)) {
        failedAnswers[preloadKey(url)] = { status, body: res.json(), currency: new URL(url, 'http://x').searchParams.get('currency') };
      }
      const empty = status === 204 || status === 304;
      return new Response(empty ? null : res.rawPayload, { status, headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') } });
    };
    const cookies: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.cookies ?? {})) if (typeof value === 'string') cookies[name] = value;
    const result = await render({ url: request.url, cookies, fetch: fetchApi });
    return result && { ...result, failedAnswers };
  };
}

/**
 * A preload for the image the rendered page asks for first (the one marked fetchpriority="high"), so
 * it starts downloading from the head; it names the same srcset and sizes, so the browser fetches the
 * one copy the page will use. Attribute values are taken as React escaped them.
 */
export function leadImagePreload(html: string): string {
  const img = /<img\b[^>]*\bfetchpriority="high"[^>]*>/i.exec(html)?.[0];
  if (!img) return '';
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(img)?.[1];
  const src = attr('src');
  if (!src?.startsWith('/')) return '';
  const srcset = attr('srcset');
  const sizes = attr('sizes');
  const responsive = srcset ? ` imagesrcset="${srcset}"${sizes ? ` imagesizes="${sizes}"` : ''}` : '';
  return `<link rel="preload" as="image" fetchpriority="high" href="${src}"${responsive}>`;
}
