/**
 * "Add funds for the shortfall, then come back": the page to return to survives the trip through
 * the payment provider's pages in sessionStorage (this tab only).
 */
const KEY = 'atelier.depositReturn';

/** Only paths inside the app: never an absolute or protocol-relative URL. */
export function safeReturnPath(path: string | null | undefined): string | null {
  if (!path?.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  return path;
}

export function rememberReturn(path: string | null) {
  try {
    const safe = safeReturnPath(path);
    if (safe) sessionStorage.setItem(KEY, safe);
    else sessionStorage.removeItem(KEY);
  } catch {
    /* storage blocked: the success page just offers the dashboard */
  }
}

export function readReturn(): string | null {
  try {
    return safeReturnPath(sessionStorage.getItem(KEY));
  } catch {
    return null;
  }
}

export function forgetReturn() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing to forget */
  }
}

/** The Add Funds link for a shortfall: amount rounded up to the cent, and where to come back to. */
export function addFundsUrl(shortfall: number, currency: string | null, returnTo: string): string {
  const params = new URLSearchParams({ amount: (Math.ceil(shortfall * 100 - 1e-6) / 100).toFixed(2), return: returnTo });
  if (currency) params.set('currency', currency);
  return `/deposit/create?${params}`;
}

/** Leaves the app for the payment provider's page (an object, so tests can watch it). */
export const leaveApp = {
  to(url: string) {
    window.location.assign(url);
  },
};
