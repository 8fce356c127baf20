/**
 * The languages a page address may name first (SPEC §2: `/de/products` is the products page in
 * German). Without a prefix a page is in the stored language, else English.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: string | undefined): value is Locale {
  return (LOCALES as readonly string[]).includes(value ?? '');
}

/** A page path split into its language prefix (null without one) and the path the app's routes know. */
export function splitLocale(pathname: string): { locale: Locale | null; path: string } {
  const match = /^\/([a-z]{2})(?=\/|$)/.exec(pathname);
  const locale = match?.[1];
  if (!isLocale(locale)) return { locale: null, path: pathname };
  return { locale, path: pathname.slice(locale.length + 1) || '/' };
}
