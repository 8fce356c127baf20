/** Escapes text for HTML content and double-quoted attributes (pages, e-mails, the sandbox card page). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** A title as an address part: lower case, accents dropped, words joined by '-', at most `max` characters. */
export function slugify(text: string, max = Number.POSITIVE_INFINITY): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-')
    .slice(0, max);
}
