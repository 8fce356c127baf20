import { ApiError } from './api-client';

/**
 * What to tell the user when a passkey ceremony fails: the server's sentence (a refused answer), or
 * the dictionary key for what the browser said. null: nothing to say (the ceremony was replaced).
 */
export function passkeyProblem(err: unknown): { text: string } | { key: 'passkeys.cancelled' | 'passkeys.already_added' | 'passkeys.failed' } | null {
  if (err instanceof ApiError) return { text: err.field('response') ?? err.field('name') ?? err.message };
  const code = (err as { code?: string } | null)?.code;
  const name = (err as { name?: string } | null)?.name;
  if (code === 'ERROR_CEREMONY_ABORTED' || name === 'AbortError') return null;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return { key: 'passkeys.already_added' };
  if (name === 'NotAllowedError') return { key: 'passkeys.cancelled' };
  return { key: 'passkeys.failed' };
}
