import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';

/**
 * SPEC §8 cart messages: the server's message when it answered, the "Failed to ..." text when it
 * answered without one, and the "Error ..." text when the call itself broke (no answer).
 */
export function cartError(err: unknown, failed: string, broken: string): string {
  if (err instanceof ApiError && err.status > 0) return serverMessageOr(err, failed);
  return broken;
}
