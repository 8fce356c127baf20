import { en, type TranslationKey } from '@atelier/shared';
import { escapeHtml } from '../../lib/text';
import type { PageMeta } from './seo.queries';

const SITE_NAME = 'Atelier';
const DESCRIPTION_MAX = 160;

/** JSON safe inside a script element: no `</script>`, no HTML comment openers, no line separators. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The head tags of one page: title, description, canonical link, OpenGraph and Twitter cards. */
export function renderHead(meta: PageMeta, publicUrl: string): string {
  const title = `${meta.title} — ${SITE_NAME}`;
  const description = clip(meta.description, DESCRIPTION_MAX);
  const url = `${publicUrl}${meta.canonicalPath}`;
  const image = meta.imageKey ? `${publicUrl}/storage/${meta.imageKey.split('/').map(encodeURIComponent).join('/')}` : null;
  const tags: [string, string, string][] = [
    ['meta', 'name="description"', description],
    ['link', 'rel="canonical"', url],
    ['meta', 'property="og:site_name"', SITE_NAME],
    ['meta', 'property="og:type"', meta.type],
    ['meta', 'property="og:title"', meta.title],
    ['meta', 'property="og:description"', description],
    ['meta', 'property="og:url"', url],
    ['meta', 'name="twitter:card"', image ? 'summary_large_image' : 'summary'],
    ['meta', 'name="twitter:title"', meta.title],
    ['meta', 'name="twitter:description"', description],
  ];
  if (image) tags.push(['meta', 'property="og:image"', image], ['meta', 'name="twitter:image"', image]);
  const lines = [`<title>${escapeHtml(title)}</title>`];
  for (const [tag, key, value] of tags)
    lines.push(tag === 'link' ? `<link ${key} href="${escapeHtml(value)}" />` : `<meta ${key} content="${escapeHtml(value)}" />`);
  if (meta.jsonLd) {
    const data = { ...meta.jsonLd, url, ...(image ? { image } : {}) };
    lines.push(`<script type="application/ld+json">${jsonForScript(data)}</script>`);
  }
  return lines.join('\n    ');
}

/** What a missing address names, for the title of its 404 page (issue 18 bug 9). */
export type MissingKind = 'page' | 'product' | 'pack' | 'profile';
/** The dictionary keys of those titles: the web app's not-found page shows the same words. */
const MISSING_TITLES = {
  page: 'pages.not_found_title',
  product: 'pages.product_not_found_title',
  pack: 'pages.pack_not_found_title',
  profile: 'pages.profile_not_found_title',
} as const satisfies Record<MissingKind, TranslationKey>;

/** The head of a page that does not exist: its title in the page's language (`words`), and no indexing. */
export function renderMissingHead(kind: MissingKind = 'page', words: Record<TranslationKey, string> = en): string {
  return `<title>${escapeHtml(words[MISSING_TITLES[kind]])} — ${SITE_NAME}</title>\n    <meta name="robots" content="noindex" />`;
}

/**
 * The shell in a page's language: `<html lang>` names it (screen readers, hyphenation), as the browser
 * sets it after, and the shell's own description is in it.
 */
export function withLanguage(indexHtml: string, locale: string, description: string): string {
  return indexHtml
    .replace(/<html lang="[^"]*"/i, () => `<html lang="${escapeHtml(locale)}"`)
    .replace(/<meta name="description" content="[^"]*"/i, () => `<meta name="description" content="${escapeHtml(description)}"`);
}

/**
 * The shell with the title of a page that shows no stored item (the shop, the contact page, /404), as
 * the browser titles it ("Shop — Atelier"); its description and social tags stay the shell's.
 */
export function withPageTitle(indexHtml: string, title: string): string {
  const full = title === SITE_NAME ? SITE_NAME : `${title} — ${SITE_NAME}`;
  return indexHtml.replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${escapeHtml(full)}</title>`);
}

/** Replaces the shell's own title, description and social tags with the page's. */
export function injectHead(indexHtml: string, head: string): string {
  const stripped = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/gi, '')
    .replace(/<link\s+rel="canonical"[^>]*>\s*/gi, '')
    .replace(/<meta\s+(property="og:|name="twitter:)[^>]*>\s*/gi, '');
  return stripped.includes('</head>') ? stripped.replace('</head>', `    ${head}\n  </head>`) : `${head}${stripped}`;
}
