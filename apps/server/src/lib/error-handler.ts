import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorEnvelope, type FieldCodes, type FieldErrors, messageText, msg, parseMessage } from '@atelier/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error';
import { escapeHtml } from './text';

/** Fastify's own error codes that are the client's fault, with a message a person can act on. */
const fastifyClientErrors: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body is empty but declared as JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'This content type is not accepted here.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'The content length does not match the body.' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: 'The uploaded file is too large.' },
  FST_FILES_LIMIT: { status: 413, message: 'Too many files were uploaded.' },
  FST_PARTS_LIMIT: { status: 413, message: 'Too many form fields were sent.' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: 'The request is not multipart/form-data.' },
};

/**
 * PostgreSQL's data exceptions a client's value can cause: a NUL or untranslatable character
 * (22021, 22P05), a number out of range (22003), text that is not of the column's type (22P02), text
 * too long (22001). The schemas refuse such values first; this is the last line of defence.
 */
const DATA_ERROR_CODES = new Set(['22021', '22P05', '22003', '22P02', '22001']);

/** The PostgreSQL data exception behind an error (drizzle wraps the driver's error as its cause), if any. */
function databaseDataError(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && DATA_ERROR_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * The multipart parser (busboy) fails with plain errors, without a code, on a body that is not the
 * multipart it claims to be: no boundary, or data that ends early.
 */
const MULTIPART_PARSE_ERROR =
  /^(Multipart: Boundary not found|Boundary required|Unsupported Content-Type\.|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

const INTERNAL_MESSAGE = msg('server.internal');

/**
 * The wire envelope of a failure. Messages may be coded (shared messages.ts): each goes out as its
 * English, and its key goes beside it (`code`, `codes`), so `message` and `errors` read as before.
 */
export function envelope(message: string, errors?: FieldErrors): ErrorEnvelope {
  const answer: ErrorEnvelope = { status: 'ERROR', message: messageText(message) };
  if (parseMessage(message)) answer.code = message;
  if (!errors || Object.keys(errors).length === 0) return answer;
  answer.errors = {};
  const codes: FieldCodes = {};
  for (const [field, messages] of Object.entries(errors)) {
    answer.errors[field] = messages.map(messageText);
    if (messages.some((m) => parseMessage(m))) codes[field] = messages.map((m) => (parseMessage(m) ? m : ''));
  }
  if (Object.keys(codes).length > 0) answer.codes = codes;
  return answer;
}

/** Turns a zod issue path like `/items/0/price` or `` into a field name (`items.0.price`, `body`). */
function fieldName(instancePath: string, params: unknown): string {
  const fromPath = instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (fromPath) return fromPath;
  const missing = (params as { issue?: { keys?: string[] } } | undefined)?.issue?.keys?.[0];
  return missing ?? 'body';
}

/**
 * A page request: a browser (or crawler) asking for a page of the site (it accepts HTML), not the
 * API or a file. It gets an HTML page when it fails, never the JSON envelope.
 */
export function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '';
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/storage/')) return false;
  return String(request.headers.accept ?? '').includes('text/html');
}

const PAGE_TITLES: Record<number, string> = { 400: 'This address cannot be opened', 404: 'Page not found', 429: 'Too many requests' };

/** A plain HTML error page: no script, no stylesheet to load, nothing that can fail in turn. */
function errorPage(status: number, message: string): string {
  const title = PAGE_TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'This page cannot be shown');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} — Atelier</title><style>body{font-family:system-ui,sans-serif;max-width:560px;margin:15vh auto;padding:0 16px;color:#17151f}a{color:inherit}</style></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">Back to the home page</a></p></main></body></html>`;
}

/** Sends an error as the envelope, or as an HTML page to a page request. */
export function sendError(request: FastifyRequest, reply: FastifyReply, status: number, message: string, errors?: FieldErrors) {
  if (isPageRequest(request)) {
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .removeHeader('content-encoding')
      .send(errorPage(status, messageText(message)));
  }
  return reply.code(status).send(envelope(message, errors));
}

/** What Node's HTTP parser reports before any request exists, as a status and a sentence. */
function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: "The request's headers are too large. Clearing this site's cookies usually helps." };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request took too long to arrive.' };
  return { status: 400, message: 'The request could not be read.' };
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refuses (headers too large, a timeout,
 * a malformed request line) never reaches a route, so its answer is written to the socket here, in
 * the envelope like every other error, and the connection is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = clientErrorAnswer(err.code);
  const body = JSON.stringify(envelope(message));
  if (!socket.writable) return void socket.destroy();
  // end, not destroy: the answer is flushed first, then the connection closes.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      if (err.statusCode >= 500) request.log.error({ err }, 'request failed');
      return sendError(request, reply, err.statusCode, err.messageCode ?? err.message, err.fieldErrors);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: FieldErrors = {};
      for (const issue of err.validation) {
        const field = fieldName(issue.instancePath, issue.params);
        const list = errors[field] ?? [];
        const message = issue.message ?? 'This value is invalid.';
        // One rule may fail twice (an id beyond the range is neither a safe integer nor under the maximum).
        if (!list.some((m) => messageText(m) === messageText(message))) list.push(message);
        errors[field] = list;
      }
      const first = Object.values(errors)[0]?.[0] ?? msg('request.invalid');
      return sendError(request, reply, 422, first, errors);
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return sendError(request, reply, 500, INTERNAL_MESSAGE);
    }
    const known = err.code ? fastifyClientErrors[err.code] : undefined;
    if (known) return sendError(request, reply, known.status, known.message);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Other client errors raised by plugins: keep the status, never echo internals.
      const message = err.statusCode === 429 ? msg('request.rate_limited') : msg('request.unprocessable');
      return sendError(request, reply, err.statusCode, message);
    }
    if (err instanceof Error && !err.code && MULTIPART_PARSE_ERROR.test(err.message)) {
      return sendError(request, reply, 400, 'The multipart body could not be read: it has no boundary or ends early.');
    }
    // decodeURIComponent on a client's value (a cookie, a header) with a broken %-escape.
    if (err instanceof URIError) return sendError(request, reply, 400, 'The request holds a broken %-escape.');
    const dataError = databaseDataError(err);
    if (dataError) {
      // A schema let through a value the database refuses: the client's mistake, but a rule is missing.
      // The driver's message can quote the value (and drizzle's the whole statement): only the code is logged.
      request.log.warn({ pgCode: dataError, route: request.routeOptions.url }, 'the database refused a value from the request');
      return sendError(request, reply, 400, 'A value in the request is out of range, too long or holds a character that cannot be stored.');
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(request, reply, 500, INTERNAL_MESSAGE);
  });
}
