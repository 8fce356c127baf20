import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * What the site's analytics tag (setting google_tag, injected after consent) needs from the policy:
 * the hash of each inline script and the origin of each external script, so nothing else may run.
 */
export function analyticsTagSources(markup: string): { scripts: string[]; hosts: string[] } {
  const scripts: string[] = [];
  const hosts = new Set<string>();
  for (const match of markup.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = match[1] ?? '';
    const body = match[2] ?? '';
    const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1];
    if (src) {
      try {
        const url = new URL(src);
        if (url.protocol === 'https:') hosts.add(url.origin);
      } catch {
        /* not an absolute https address: not allowed */
      }
    } else if (body.trim()) {
      scripts.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
  }
  return { scripts, hosts: [...hosts] };
}

export function contentSecurityPolicy(googleTag: string): string {
  const tag = analyticsTagSources(googleTag);
  const extra = [...tag.scripts, ...tag.hosts].join(' ');
  const hosts = tag.hosts.join(' ');
  return [
    "default-src 'self'",
    `script-src 'self'${extra ? ` ${extra}` : ''}`,
    // The critical stylesheet is inlined into each page, and React sets style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${hosts ? ` ${hosts}` : ''}`,
    "font-src 'self' data:",
    `connect-src 'self'${hosts ? ` ${hosts}` : ''}`,
    "frame-src 'self'",
    "frame-ancestors 'self'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * Browser features no page of the site uses, turned off for it and anything it embeds (only names
 * Chromium knows: an unknown one is logged as a console error on every page). The Payment Request API
 * stays open to the site's own pages, for a payment provider's wallet button.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=(self)',
  'usb=()',
].join(', ');

/**
 * Headers on every answer: no sniffing, a strict referrer, no framing by others; HSTS when the site
 * is served over https; a Content-Security-Policy on HTML pages (not the API docs, which bring their
 * own inline scripts); Permissions-Policy and Cross-Origin-Opener-Policy on every HTML answer; and `no-store` on API answers that did not choose a cache policy, so a shared
 * cache never keeps one visitor's data (profile, balance, cart).
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const hsts = app.config.publicUrl.startsWith('https://');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (hsts) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    const route = request.routeOptions.url ?? '';
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('text/html') && !route.startsWith('/api/docs')) {
      const googleTag = await app.settings
        .get()
        .then((s) => s.google_tag)
        .catch(() => '');
      reply.header('content-security-policy', contentSecurityPolicy(googleTag));
    }
    if (type.startsWith('text/html')) {
      // The site uses no camera, microphone, location or the like: no page (nor an injected script)
      // may ask for them. Its own window is not shared with pages it opens or
      // that open it (a payment page in a new tab cannot reach back).
      reply.header('permissions-policy', PERMISSIONS_POLICY);
      reply.header('cross-origin-opener-policy', 'same-origin');
    }
    if (route.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
