import type { DehydratedState } from '@tanstack/react-query';

/** The element that carries what the server rendered with: the query answers and the page seed. */
export const SSR_STATE_ELEMENT_ID = 'atelier-ssr';

export type SsrState = { seed: number; queries: DehydratedState };
