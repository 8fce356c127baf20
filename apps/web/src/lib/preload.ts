import { PRELOAD_ELEMENT_ID, PRELOAD_MAX_AGE_MS, type Preload, preloadKey } from '@atelier/shared/preload';
import { takeScriptJson } from './script-json';

let store: { answers: Preload; until: number } | null | undefined;

function readStore() {
  if (store !== undefined) return store;
  // A missing or broken preload only costs the round trips it would have saved.
  const answers = takeScriptJson<Preload>(PRELOAD_ELEMENT_ID);
  store = answers ? { answers, until: Date.now() + PRELOAD_MAX_AGE_MS } : null;
  return store;
}

/**
 * The answer the server put into the page for this GET call, as a Response, or null: each answer is
 * used once, only in the first seconds after start, and only when its prices are in the currency the
 * call asks for.
 */
export function takePreloaded(url: string): Response | null {
  const s = readStore();
  if (!s || Date.now() > s.until) return null;
  const key = preloadKey(url);
  const answer = s.answers[key];
  if (!answer || (answer.currency !== null && answer.currency !== new URL(url, 'http://x').searchParams.get('currency'))) return null;
  delete s.answers[key];
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
}

/** Test hook: forget what was read, so the next call reads the page again. */
export function resetPreloadForTests() {
  store = undefined;
}
