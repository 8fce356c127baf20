/**
 * Reads and removes a `<script type="application/json">` element the server put into the page
 * (jsonScriptTag in @atelier/shared/preload). Null when the page has none or it does not parse.
 */
export function takeScriptJson<T>(id: string): T | null {
  const el = typeof document === 'undefined' ? null : document.getElementById(id);
  if (!el) return null;
  el.remove();
  try {
    return el.textContent ? (JSON.parse(el.textContent) as T) : null;
  } catch {
    return null;
  }
}
