import './field.css';
import { forwardRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';
import { localizeMessage } from '../../lib/i18n';
import { useTranslation } from '../../lib/i18n-runtime';

/** Label, control and the hint or error underneath, wired for screen readers: the one field layout of every form. */
export function FieldFrame({
  id,
  label,
  error,
  hint,
  control,
}: {
  id?: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  control: (a11y: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {control({ id: inputId, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && !error && (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      )}
      <InlineError id={errorId} message={error} />
    </div>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; error?: string; hint?: ReactNode };

/** A labelled input with its error underneath. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, hint, id, ...input }, ref) {
  return <FieldFrame id={id} label={label} error={error} hint={hint} control={(a11y) => <input ref={ref} {...a11y} {...input} />} />;
});

/**
 * A new password, with the rules as a hint and the browser free to suggest one; `repeat` is its
 * second typing (no hint, the rules were just said).
 */
export const NewPasswordField = forwardRef<HTMLInputElement, Omit<FieldProps, 'type' | 'hint'> & { repeat?: boolean }>(function NewPasswordField(
  { repeat = false, ...props },
  ref,
) {
  const { t } = useTranslation();
  return <Field ref={ref} type="password" autoComplete="new-password" hint={repeat ? undefined : t('auth.password_hint')} {...props} />;
});

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: ReactNode; error?: string; hint?: ReactNode };

/** The multi-line sibling of Field. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField({ label, error, hint, id, ...textarea }, ref) {
  return <FieldFrame id={id} label={label} error={error} hint={hint} control={(a11y) => <textarea ref={ref} {...a11y} {...textarea} />} />;
});

/** An error said right where it happened (under a field or a control), read out by screen readers; nothing when there is none. */
export function InlineError({ message, id }: { message?: ReactNode; id?: string }) {
  // A coded message (a schema's, or the server's by its key: lib/i18n.ts) shows in the page's language; other text as it came.
  useTranslation();
  if (!message) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {typeof message === 'string' ? localizeMessage(message) : message}
    </p>
  );
}

export function FormError({ message }: { message?: string | null }) {
  useTranslation();
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {localizeMessage(message)}
    </p>
  );
}
