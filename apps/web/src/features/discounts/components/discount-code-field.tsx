import { useId, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import './discounts.css';

/**
 * "Discount code" with Apply (issue 34), for the buy dialog and the checkout: `apply` asks the server
 * for the new price; its 422 on `discount_code` says why a code cannot be used, under the field.
 * Once applied, the code shows with Remove.
 */
export function DiscountCodeField({
  applied,
  apply,
  onRemove,
}: {
  applied: { code: string; note: string } | null;
  apply: (code: string) => Promise<unknown>;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!code.trim()) return;
    setError(null);
    setBusy(true);
    try {
      await apply(code.trim());
      setCode('');
    } catch (err) {
      setError(err instanceof ApiError && err.field('discount_code') ? err.field('discount_code')! : serverMessageOr(err, t('discount.failed')));
    } finally {
      setBusy(false);
    }
  }

  if (applied)
    return (
      <p className="discount-applied" role="status" data-testid="discount-applied">
        {applied.note}{' '}
        <button type="button" className="link-button" onClick={onRemove}>
          {t('discount.remove')}
        </button>
      </p>
    );
  return (
    <div className="discount-code-field">
      <label htmlFor={id}>{t('discount.field')}</label>
      <div className="discount-code-row">
        <input
          id={id}
          name="discount_code"
          value={code}
          autoComplete="off"
          maxLength={64}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <button type="button" className="button" onClick={() => void submit()} disabled={busy || !code.trim()}>
          {t('discount.apply')}
        </button>
      </div>
      <InlineError message={error ?? undefined} />
    </div>
  );
}
