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
 * Headers a proxy adds to say whom it forwards for. A request carrying any of them came through a
 * proxy, whose own address (often loopback) says nothing about the visitor.
 */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-real-ip',
  'via',
  'client-ip',
  'true-client-ip',
  'x-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-cluster-client-ip',
];

export function isForwarded(headers: Record<string, unknown>): boolean {
  return Object.keys(headers).some((name) => name.startsWith('x-forwarded-') || FORWARDING_HEADERS.includes(name));
}

/** /dev/mail: the outbox as a page, so a developer can click a verification link. Never in production. */
export const devMailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/dev/mail', { schema: { hide: true } }, async (request, reply) => {
    // The outbox holds password-reset links: only a browser on this machine may read it, and not
    // through a proxy (which would make every visitor look local).
    if (!isLoopback(request.socket.remoteAddress) || isForwarded(request.headers)) {
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
