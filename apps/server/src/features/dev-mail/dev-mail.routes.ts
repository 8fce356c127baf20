import { desc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mailOutbox } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { escapeHtml } from '../../lib/text';

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.replace(/^::ffff:/, '');
  return a === '::1' || /^127(\.\d{1,3}){3}$/.test(a);
}

/**
 * The headers a browser (or curl) sends by itself when it talks to the app directly. Anything else,
 * whatever its name (X-Forwarded-For, Forwarded, Via, X-Real-IP, X-ProxyUser-Ip,
 * X-Original-Forwarded-For, a CDN's own), may have been added by a proxy, whose own address (often
 * loopback) says nothing about the visitor. An allow-list, so no header name we have not met can
 * make a visitor look local (issue 29).
 */
const DIRECT_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'user-agent',
  'accept',
  'accept-language',
  'accept-encoding',
  'cookie',
  'cache-control',
  'pragma',
  'upgrade-insecure-requests',
  'dnt',
  'referer',
  'origin',
  'if-none-match',
  'if-modified-since',
  'priority',
  'purpose',
  'te',
]);

export function isForwarded(headers: Record<string, unknown>): boolean {
  return Object.keys(headers).some((name) => !DIRECT_HEADERS.has(name) && !name.startsWith('sec-'));
}

/** The Host the browser asked for names this machine (a proxy for a public name, or DNS rebinding, does not). */
function asksForLoopback(host: unknown): boolean {
  if (typeof host !== 'string') return false;
  const name = host
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  return name === 'localhost' || isLoopback(name);
}

/** /dev/mail: the outbox as a page, so a developer can click a verification link. Never in production. */
export const devMailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dev/mail', { schema: { hide: true } }, async (request, reply) => {
    // The outbox holds password-reset links: only a browser on this machine may read it, and not
    // through a proxy (which would make every visitor look local). The socket decides, and the
    // client address as TRUST_PROXY reads it; without TRUST_PROXY no header can make anyone local.
    if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip) || isForwarded(request.headers) || !asksForLoopback(request.headers.host)) {
      throw notFound('Not found.');
    }
    const rows = await app.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(100);
    const linkify = (text: string) => escapeHtml(text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');
    const items = rows
      .map(
        (m) =>
          `<article class="mail"><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${m.createdAt.toISOString().replace('T', ' ').slice(0, 19)}${m.sentAt ? ' · delivered' : ''}${m.error ? ` · failed: ${escapeHtml(m.error)}` : ''}</span></header><pre>${linkify(m.text)}</pre></article>`,
      )
      .join('');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Outbox — Atelier (development)</title>
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:24px auto;padding:0 16px;color:#17151f}.mail{border:1px solid #ddd;border-radius:12px;padding:12px 16px;margin:12px 0}.mail header{display:flex;flex-direction:column;gap:2px}.mail span{color:#666;font-size:14px}pre{white-space:pre-wrap;font:inherit}</style></head>
<body><h1>Outbox</h1><p>Every message the app sent, newest first. This page exists only outside production.</p>${items || '<p>No messages yet.</p>'}</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
};
