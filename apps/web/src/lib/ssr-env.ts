import { useSyncExternalStore } from 'react';

/**
 * What a page rendered on the server knows about the visitor's request. The browser has no such
 * environment (serverEnv() is undefined there); the server entry (src/entry-server.tsx) provides one
 * per request, so the shared code reads cookies and answers API calls without window or document.
 */
export type ServerEnv = {
  cookies: Record<string, string>;
  /** Answers an API call in-process, with the visitor's cookies. */
  fetch: (url: string) => Promise<Response>;
  /** Seed of the page's random choices (card taglines), sent along so the browser makes the same ones. */
  seed: number;
  /** The page's language, from its address (`/de/...`), else English. */
  locale: string;
};

let provider: (() => ServerEnv | undefined) | null = null;

export const isServer = typeof document === 'undefined';

/** Called once by the server entry. */
export function setServerEnvProvider(next: () => ServerEnv | undefined) {
  provider = next;
}

export function serverEnv(): ServerEnv | undefined {
  return isServer ? provider?.() : undefined;
}

let browserSeed = Math.floor(Math.random() * 2 ** 31);

/** The browser takes the seed the server rendered with, so hydration makes the same choices. */
export function setPageSeed(seed: number) {
  browserSeed = seed;
}

export function pageSeed(): number {
  return serverEnv()?.seed ?? browserSeed;
}

const noSubscribe = () => () => {};

/** False on the server and during hydration, true once the browser has taken over. */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}
