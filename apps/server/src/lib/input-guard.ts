import { hasNulCharacter, nulCharacterMessage } from '@atelier/shared';
import type { FastifyRequest } from 'fastify';
import { validationError } from './app-error';

/** How many values one walk looks at, at most: a body is bounded by the body limit anyway. */
const MAX_VALUES = 100_000;

/**
 * The field (as `items.0.title`, or '' for the value itself) where a NUL character hides in a value
 * or in one of its keys, or null. Walks with its own stack, so a deeply nested body cannot overflow it.
 */
export function findNulCharacter(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let seen = 0; stack.length > 0 && seen < MAX_VALUES; seen++) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (hasNulCharacter(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => {
        stack.push({ value: item, path: path ? `${path}.${i}` : String(i) });
      });
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (hasNulCharacter(key)) return path;
        stack.push({ value: item, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return null;
}

/**
 * The safety net behind the schemas (which refuse a NUL character field by field, with their own
 * words): PostgreSQL cannot store one in text, so any that is still in the params, query or body
 * when the handler would run is a 422 naming the field. Runs after validation, as a preHandler.
 */
export async function rejectNulCharacters(request: FastifyRequest) {
  const parts = { params: request.params, query: request.query, body: request.body };
  for (const [part, value] of Object.entries(parts)) {
    const field = findNulCharacter(value);
    if (field !== null) throw validationError({ [field || part]: nulCharacterMessage(field || part) });
  }
}
