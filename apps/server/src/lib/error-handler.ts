import type { ErrorEnvelope, FieldErrors } from '@atelier/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './app-error';

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

function envelope(message: string, errors?: FieldErrors): ErrorEnvelope {
  return errors && Object.keys(errors).length > 0 ? { status: 'ERROR', message, errors } : { status: 'ERROR', message };
}

/** Turns a zod issue path like `/items/0/price` or `` into a field name (`items.0.price`, `body`). */
function fieldName(instancePath: string, params: unknown): string {
  const fromPath = instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (fromPath) return fromPath;
  const missing = (params as { issue?: { keys?: string[] } } | undefined)?.issue?.keys?.[0];
  return missing ?? 'body';
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      if (err.statusCode >= 500) request.log.error({ err }, 'request failed');
      return reply.code(err.statusCode).send(envelope(err.message, err.fieldErrors));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: FieldErrors = {};
      for (const issue of err.validation) {
        const field = fieldName(issue.instancePath, issue.params);
        const list = errors[field] ?? [];
        list.push(issue.message ?? 'This value is invalid.');
        errors[field] = list;
      }
      const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return reply.code(422).send(envelope(first, errors));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err, issues: err.cause.issues }, 'response did not match its schema');
      return reply.code(500).send(envelope('Something went wrong on our side. Please try again later.'));
    }
    const known = err.code ? fastifyClientErrors[err.code] : undefined;
    if (known) return reply.code(known.status).send(envelope(known.message));
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Other client errors raised by plugins: keep the status, never echo internals.
      const message = err.statusCode === 429 ? 'Too many requests. Please slow down.' : 'The request could not be processed.';
      return reply.code(err.statusCode).send(envelope(message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(envelope('Something went wrong on our side. Please try again later.'));
  });
}
