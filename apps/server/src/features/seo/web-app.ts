import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCT_TYPES } from '@atelier/shared';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { publicCache } from '../../lib/http-cache';
import { listSitemapEntries, type PageMeta, productPageMeta, profilePageMeta, staticPageMeta } from './seo.queries';
import { escapeHtml, injectHead, renderHead, renderMissingHead } from './seo-head';

const FALLBACK_INDEX = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atelier</title></head><body><div id="root"></div></body></html>';

const productTypes: readonly string[] = PRODUCT_TYPES;

/**
 * The page a path shows, for the head of the HTML: a PageMeta, null when the path names an item that
 * does not exist (the SPA shows its 404), or undefined for any other page (the shell's own head).
 */
async function metaForPath(db: Db, urlPath: string): Promise<PageMeta | null | undefined> {
  const match = /^\/(products|packs|profile|page)\/([^/]+)\/?$/.exec(urlPath);
  if (!match) return undefined;
  let key: string;
  try {
    key = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  if (key.length > 200) return null;
  switch (match[1]) {
    case 'products':
      // products/{type} is the list filtered by type (SPEC §2), not a product.
      return productTypes.includes(key) ? undefined : productPageMeta(db, key, 'product');
    case 'packs':
      return productPageMeta(db, key, 'pack');
    case 'profile':
      return profilePageMeta(db, key);
    default:
      return staticPageMeta(db, key);
  }
}

function renderSitemap(entries: { path: string; lastModified: Date | null }[], publicUrl: string): string {
  const urls = entries.map((e) => {
    const lastmod = e.lastModified ? `<lastmod>${e.lastModified.toISOString().slice(0, 10)}</lastmod>` : '';
    return `  <url><loc>${escapeHtml(`${publicUrl}${e.path}`)}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Pages that only make sense for a signed-in user, or that carry one-time tokens. */
const PRIVATE_PATHS = ['/api/', '/dashboard', '/cart', '/checkout', '/deposit/', '/verification', '/email/', '/reset-password', '/forgot-password'];

/**
 * Serves the built SPA (hashed assets with long caching) and, for every other page path, its
 * index.html with the real title, description, canonical link and social tags of the page, so shared
 * links and crawlers see the product without running JavaScript. Also /sitemap.xml and /robots.txt.
 */
export function registerWebApp(app: FastifyInstance) {
  const { config } = app;
  const indexFile = path.join(config.webDist, 'index.html');
  const hasDist = existsSync(indexFile);
  const indexHtml = hasDist ? readFileSync(indexFile, 'utf8') : FALLBACK_INDEX;
  const missingHtml = injectHead(indexHtml, renderMissingHead());
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
    const entries = await listSitemapEntries(app.db);
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
    const meta = await metaForPath(app.db, url);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (meta === undefined) return reply.code(200).send(indexHtml);
    // The SPA still renders its own 404 page; the status tells crawlers not to index it.
    if (meta === null) return reply.code(404).send(missingHtml);
    return reply.code(200).send(injectHead(indexHtml, renderHead(meta, config.publicUrl)));
  });
}
