/**
 * API answers the server puts into the HTML of a page (a JSON script element), so the web app's
 * first GET calls are answered without a network round trip. The web app takes each answer once,
 * and only when it asks the same call in the same currency.
 */
export const PRELOAD_ELEMENT_ID = 'atelier-preload';

/** How long after the app starts a preloaded answer may still be used instead of asking again. */
export const PRELOAD_MAX_AGE_MS = 10_000;

export type PreloadedAnswer = {
  /** HTTP status of the answer. */
  status: number;
  /** Its JSON body (the envelope). */
  body: unknown;
  /** The currency its prices are in, or null when it carries no price. */
  currency: string | null;
};

/** Keyed by preloadKey() of the call. */
export type Preload = Record<string, PreloadedAnswer>;

/**
 * One spelling of a GET call for both sides: the path, then its query parameters sorted by name
 * (repeated names keep their order), without `currency`, which each answer records on its own.
 */
export function preloadKey(pathAndQuery: string): string {
  const url = new URL(pathAndQuery, 'http://x');
  const pairs = [...url.searchParams.entries()].filter(([k, v]) => k !== 'currency' && v !== '');
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const query = new URLSearchParams(pairs).toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** JSON for a <script type="application/json"> element: nothing in it can close the element. */
export function toScriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A `<script type="application/json">` element carrying `value`, for the browser to read by its id. */
export function jsonScriptTag(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${toScriptJson(value)}</script>`;
}
