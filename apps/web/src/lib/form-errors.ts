import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client';
import { localizeMessage } from './i18n';

/**
 * Puts the server's per-field messages (the first of each, SPEC §5) under the form's fields, coded
 * when the server gave their keys, so the field shows them in the page's language.
 * Returns true when at least one field message was placed.
 */
export function applyServerErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, fields: readonly string[]): boolean {
  if (!(err instanceof ApiError)) return false;
  let placed = false;
  for (const field of fields) {
    const message = err.fieldMessage(field);
    if (message) {
      setError(field as Path<T>, { type: 'server', message });
      placed = true;
    }
  }
  return placed;
}

/** An error's message in the page's language (by its key when it has one), else `fallback`. */
export function messageOf(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.message) return localizeMessage(err.displayMessage);
  return err instanceof Error && err.message ? localizeMessage(err.message) : fallback;
}

/**
 * SPEC §8: the server's message when it sent one, else the screen's own fallback (also when the
 * call never got an answer, or the answer had no message).
 */
export function serverMessageOr(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status > 0 && err.message && !err.generic) return localizeMessage(err.displayMessage);
  return fallback;
}

/**
 * SPEC §8 store messages: the server's message when it answered with one, `failed` when it answered
 * without one, `broken` when the call got no answer at all.
 */
export function failureMessage(err: unknown, failed: string, broken: string): string {
  if (err instanceof ApiError && err.status > 0) return serverMessageOr(err, failed);
  return broken;
}
