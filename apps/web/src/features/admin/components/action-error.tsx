import { InlineError } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';

/** The server's words for a refused staff action: the first field message, else its message. */
export function actionErrorText(err: unknown): string | null {
  if (!err) return null;
  if (err instanceof ApiError) return Object.values(err.errors)[0]?.[0] ?? err.message;
  return err instanceof Error ? err.message : String(err);
}

export function ActionError({ error }: { error: unknown }) {
  const text = actionErrorText(error);
  return <InlineError message={text} />;
}
