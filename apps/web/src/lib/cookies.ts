import { isServer, serverEnv } from './ssr-env';

/** SPEC §9 cookie helper: expiry 1 day, path /, SameSite Lax unless told otherwise. */
export function readCookie(name: string): string | null {
  if (isServer) return serverEnv()?.cookies[name] ?? null;
  const prefix = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split('; ')) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return null;
}

export function writeCookie(name: string, value: string, opts: { expires?: Date; days?: number } = {}) {
  const expires = opts.expires ?? new Date(Date.now() + (opts.days ?? 1) * 86_400_000);
  // biome-ignore lint/suspicious/noDocumentCookie: the cookie helper is the one place that writes cookies.
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires.toUTCString()}; path=/; SameSite=Lax`;
}
