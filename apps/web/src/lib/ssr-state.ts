import type { DehydratedState } from '@tanstack/react-query';

/** The element that carries what the server rendered with: the query answers, the page seed and the words. */
export const SSR_STATE_ELEMENT_ID = 'atelier-ssr';

export type SsrState = {
  seed: number;
  queries: DehydratedState;
  /** The words the page shows, by key, in its language: the browser's first render uses them, the rest of the dictionary comes after. */
  words: Record<string, string>;
  /** The language the page was rendered in (`en`, or `de` under /de). */
  locale: string;
};
