import { forwardRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from 'react';

/** Label, control and the error underneath, wired for screen readers; shared by Field and TextAreaField. */
function FieldFrame({
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
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {control({ id: inputId, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {hint && !error && <p className="field-hint">{hint}</p>}
      {error && (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; error?: string; hint?: ReactNode };

/** A labelled input with its error underneath. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field({ label, error, hint, id, ...input }, ref) {
  return <FieldFrame id={id} label={label} error={error} hint={hint} control={(a11y) => <input ref={ref} {...a11y} {...input} />} />;
});

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: ReactNode; error?: string };

/** The multi-line sibling of Field. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField({ label, error, id, ...textarea }, ref) {
  return <FieldFrame id={id} label={label} error={error} control={(a11y) => <textarea ref={ref} {...a11y} {...textarea} />} />;
});

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
