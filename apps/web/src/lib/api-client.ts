import type { FieldCodes, FieldErrors } from '@atelier/shared';
import { SELECTED_CURRENCY_KEY, STEP_UP_FIELD } from '@atelier/shared/constants';
import { splitLocale } from '@atelier/shared/i18n/locales';
import { type MessageKey, parseMessage } from '@atelier/shared/messages';
import { readCookie } from './cookies';
import { takePreloaded } from './preload';
import { isServer, serverEnv } from './ssr-env';

/** The keys of the server's messages (shared messages.ts), and whether the message is only the app's stand-in for an answer without one. */
export type ApiErrorDetails = { code?: string; codes?: FieldCodes; generic?: boolean };

/**
 * A failed call: the server's message (English), its per-field errors and the HTTP status, with the
 * keys of those messages when the server gave them (`code`, `codes`): the app decides and
 * translates by the keys, never by the English.
 */
export class ApiError extends Error {
  readonly code: string | undefined;
  readonly codes: FieldCodes;
  /** The message is the app's stand-in (`Request failed (500).`): the answer had none. */
  readonly generic: boolean;
  constructor(
    message: string,
    readonly status: number,
    readonly errors: FieldErrors = {},
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = details.code;
    this.codes = details.codes ?? {};
    this.generic = details.generic ?? false;
  }
  /** The failure read from an error envelope (any other body gives a generic message). */
  static fromAnswer(status: number, data: unknown): ApiError {
    const body = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
    const generic = typeof body.message !== 'string' || body.message === '';
    const message = generic ? `Request failed (${status}).` : (body.message as string);
    const errors = body.errors && typeof body.errors === 'object' ? (body.errors as FieldErrors) : {};
    const codes = body.codes && typeof body.codes === 'object' ? (body.codes as FieldCodes) : {};
    return new ApiError(message, status, errors, { code: typeof body.code === 'string' ? body.code : undefined, codes, generic });
  }
  /** The first message under a field, as SPEC §5 shows it. */
  field(name: string): string | undefined {
    return this.errors[name]?.[0];
  }
  /** The key of the top-level message, when the server gave one. */
  get key(): MessageKey | undefined {
    return this.code ? parseMessage(this.code)?.key : undefined;
  }
  /** The first message under a field as the app shows it: coded when the server gave its key, else its English. */
  fieldMessage(name: string): string | undefined {
    const code = this.codes[name]?.[0];
    return code && parseMessage(code) ? code : this.field(name);
  }
  /** The top-level message as the app shows it: coded when the app knows its key, else the server's English. */
  get displayMessage(): string {
    return this.code && parseMessage(this.code) ? this.code : this.message;
  }
}

type GlobalHandlers = {
  onUnauthenticated?: () => void;
  onCsrfExpired?: () => void;
  onEmailNotVerified?: () => void;
  onForbidden?: () => void;
  /** Staff blocked the account (issue 18 bug 3): the app shows the blocked screen. */
  onAccountBlocked?: () => void;
};
const handlers: GlobalHandlers = {};

/** The app installs the SPEC §8 global reactions (401, 419, 403) once, at start. */
export function setGlobalApiHandlers(next: GlobalHandlers) {
  Object.assign(handlers, next);
}

export const EMAIL_NOT_VERIFIED: MessageKey = 'auth.email_not_verified';
/** The server's answer to a call from a session whose account staff blocked (a 403). */
export const ACCOUNT_BLOCKED: MessageKey = 'account.blocked';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** SPEC §8: the page's language prefix (`/de/...`), else the stored language, else English. */
export function currentLanguage(): string {
  // A page rendered on the server is in the language of its address (English without a prefix).
  if (isServer) return serverEnv()?.locale ?? 'en';
  return splitLocale(window.location.pathname).locale ?? localStorage.getItem('language') ?? 'en';
}

export function selectedCurrency(): string | null {
  if (isServer) return readCookie(SELECTED_CURRENCY_KEY);
  return localStorage.getItem(SELECTED_CURRENCY_KEY);
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null | (string | number)[]>;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not run the global 401/403 reactions (the auth check handles its own 401). */
  quiet?: boolean;
  /**
   * Only for a call whose answer carries prices: the display currency they are in. It goes out as
   * the X-Currency header, and on a GET also as the `currency` parameter, so each currency's answer
   * has its own URL (HTTP caches, the page's preloaded answers). Other calls do not send it.
   */
  currency?: string | null;
  /** Extra request headers (a purchase's Idempotency-Key). */
  headers?: Record<string, string>;
};

function buildUrl(path: string, query: RequestOptions['query'], currency: string | null | undefined, method: string): string {
  const url = new URL(path.startsWith('/') ? path : `/api/${path}`, isServer ? 'http://localhost' : window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, String(v));
    else url.searchParams.set(key, String(value));
  }
  if (currency && method === 'GET' && !url.searchParams.has('currency')) url.searchParams.set('currency', currency);
  return url.pathname + url.search;
}

/** Ensures the XSRF-TOKEN cookie exists before the first state-changing call (Sanctum's flow). */
export async function ensureCsrfCookie(): Promise<void> {
  if (readCookie('XSRF-TOKEN')) return;
  await renewCsrfCookie();
}

/**
 * Asks the server for the XSRF-TOKEN cookie again, whether or not one is there: a cookie left from a
 * session that ended elsewhere (a password reset in another browser, a block) no longer matches, and
 * the server answers with a fresh session and token (issue 18 bug 1).
 */
export async function renewCsrfCookie(): Promise<void> {
  try {
    await fetch('/sanctum/csrf-cookie', { credentials: 'include' });
  } catch {
    /* unreachable server: the call that follows says so */
  }
}

/**
 * For calls sent another way (uploads with XMLHttpRequest): one try, and on a 419 a renewed XSRF
 * cookie and one more. `last` tells the try whether a failure is final (then the global reactions run).
 */
export async function retryOnStaleCsrf<T>(attempt: (last: boolean) => Promise<T>): Promise<T> {
  try {
    return await attempt(false);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 419) throw err;
    await renewCsrfCookie();
    return attempt(true);
  }
}

/**
 * The SPEC §8 global reactions to a failed call (401, 419, 403), told apart by the answer's code;
 * uploads sent with XMLHttpRequest use it too.
 */
export function reactToFailure(status: number, code: string | undefined) {
  const key = code ? parseMessage(code)?.key : undefined;
  if (status === 401) handlers.onUnauthenticated?.();
  else if (status === 419) handlers.onCsrfExpired?.();
  else if (status === 403 && key === EMAIL_NOT_VERIFIED) handlers.onEmailNotVerified?.();
  else if (status === 403 && key === ACCOUNT_BLOCKED) handlers.onAccountBlocked?.();
  else if (status === 403) handlers.onForbidden?.();
}

/** One try of a call: a state-changing one echoes the XSRF-TOKEN cookie as it is at this moment. */
async function send(path: string, opts: RequestOptions, method: string): Promise<Response> {
  const currency = opts.currency;
  const headers: Record<string, string> = { ...opts.headers, Accept: 'application/json', 'X-Frontend-Language': currentLanguage() };
  if (currency) headers['X-Currency'] = currency;
  let body: BodyInit | undefined;
  if (STATE_CHANGING.has(method)) {
    await ensureCsrfCookie();
    const token = readCookie('XSRF-TOKEN');
    if (token) headers['X-XSRF-TOKEN'] = token;
    // The body is exactly what the caller sends: the currency travels in the header, never in it.
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
  }
  const url = buildUrl(path, opts.query, currency, method);
  try {
    // The server answered the page's first calls inside its HTML (lib/preload.ts).
    const onServer = serverEnv();
    if (onServer) return await onServer.fetch(url);
    return (method === 'GET' ? takePreloaded(url) : null) ?? (await fetch(url, { method, headers, body, credentials: 'include', signal: opts.signal }));
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('Could not connect to the server. Please try again later.', 0);
  }
}

/** Raw response for a call (downloads use it); throws ApiError with the server's message on failure. */
export async function apiResponse(path: string, opts: RequestOptions = {}): Promise<Response> {
  const method = opts.method ?? 'GET';
  let res = await send(path, opts, method);
  if (res.status === 419 && !isServer) {
    // A stale XSRF cookie (its session ended elsewhere): renew it and try once more.
    await renewCsrfCookie();
    res = await send(path, opts, method);
  }
  if (res.ok) return res;
  // Not JSON: the generic message.
  const failure = ApiError.fromAnswer(res.status, await res.json().catch(() => null));
  // A step-up request (errors.step_up, issue 21) is answered by the caller's step-up dialog, not the forbidden page.
  if (!opts.quiet && !failure.errors[STEP_UP_FIELD]) reactToFailure(res.status, failure.code);
  throw failure;
}

/** A success status whose body is not OK: the body's message when it has one. */
function unexpectedAnswer(status: number, data: unknown): ApiError {
  const failure = ApiError.fromAnswer(status, data);
  return failure.generic ? new ApiError('Unexpected answer from the server.', status, failure.errors, { generic: true }) : failure;
}

/** Calls the API and unwraps `{status: "OK", payload}`; a body whose status is not OK is an error. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await apiResponse(path, opts);
  if (res.status === 204) return undefined as T;
  const data = await res.json();
  if (data?.status !== 'OK') throw unexpectedAnswer(res.status, data);
  return (data.payload ?? data) as T;
}

/** Like api() but returns the whole envelope (for calls whose answer carries more than payload). */
export async function apiEnvelope<T extends { status: 'OK' }>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await apiResponse(path, opts);
  const data = await res.json();
  if (data?.status !== 'OK') throw unexpectedAnswer(res.status, data);
  return data as T;
}
