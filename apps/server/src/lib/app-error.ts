import { type FieldErrors, messageText, msg, parseMessage } from '@atelier/shared';

/** The small set of error codes the API uses; each maps to one HTTP status. */
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** Was there and is no more: a refunded item's download. */
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CSRF_MISMATCH: 419,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof errorStatus;

/**
 * A failure the client is told about. The message (and each field error) is English text, or a coded
 * message of the catalogue (`msg('account.blocked')`, shared messages.ts): then `message` is its
 * English and `messageCode` the coded message, which the error handler sends as the envelope's `code`.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly messageCode: string | undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(messageText(message));
    this.messageCode = parseMessage(message) ? message : undefined;
    this.name = 'AppError';
    this.statusCode = errorStatus[code];
  }
}

/** A 422 with one message under each named field. */
export function validationError(fields: Record<string, string>, message?: string): AppError {
  const errors: FieldErrors = {};
  for (const [field, text] of Object.entries(fields)) errors[field] = [text];
  return new AppError('VALIDATION', message ?? Object.values(fields)[0] ?? msg('request.invalid'), errors);
}

export const notFound = (what = msg('request.not_found')) => new AppError('NOT_FOUND', what);
