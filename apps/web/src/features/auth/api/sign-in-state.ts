import { useIsMutating } from '@tanstack/react-query';

// What every page's guards need of signing in, apart from the sign-in requests themselves (which load
// with the sign-in pages): the first load of a storefront page stays small.

/** Whitespace, a control or an invisible format character: browsers drop tabs and newlines from a URL, so `/\t/x` is `//x`. */
const UNSAFE_CHARACTER = /[\s\p{Cc}\p{Cf}]/u;

/** Up to three rounds of percent-decoding, so `%252F` is seen as `/` too; null when the escapes are broken. */
function fullyDecoded(text: string): string | null {
  let current = text;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * The `?redirect=` target to follow after sign-in, or null: only a path on this site. It starts with
 * exactly one `/` (`//host` and `/\host` name another host), its path has no backslash, and there is
 * no whitespace or control character anywhere, as written or once percent-escapes are decoded.
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target || UNSAFE_CHARACTER.test(target)) return null;
  const cut = target.search(/[?#]/);
  const path = fullyDecoded(cut === -1 ? target : target.slice(0, cut));
  if (path === null || !path.startsWith('/') || path.startsWith('//') || path.includes('\\') || UNSAFE_CHARACTER.test(path)) return null;
  // What the browser would make of it: it must stay on this origin.
  const base = 'https://atelier.invalid';
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return null;
  }
  return url.origin === base ? target : null;
}

/** The login and register requests share this key: while one runs, the guest-only pages stay put. */
export const signInKey = ['auth', 'sign-in'] as const;

/**
 * True while a sign-in (login or register) is on its way, including the navigation after it: the
 * guest-only guard waits for it instead of sending the now signed-in user to the dashboard, which
 * would cut off the navigation to the `?redirect=` target.
 */
export const useSigningIn = () => useIsMutating({ mutationKey: signInKey }) > 0;
