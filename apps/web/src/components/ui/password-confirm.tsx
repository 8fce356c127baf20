import type { FormEvent } from 'react';
import { Field } from './field';
import { FormActions } from './form-actions';

/**
 * "Confirm with your password": the one form for it (the step-up dialog of an account with no second
 * factor, turning two-factor sign-in off, deleting the account). Enter submits; the confirm button
 * waits for a password and while the call runs.
 */
export function PasswordConfirm(props: {
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onSubmit: () => void | Promise<void>;
  onCancel: () => void;
  cancelLabel: string;
  confirmLabel: string;
  pending?: boolean;
  /** The confirm button warns: the action cannot be undone. */
  danger?: boolean;
  /** The class of the buttons' row, as the surrounding dialog or panel lays it out. */
  actionsClassName?: string;
}) {
  function submit(e: FormEvent) {
    e.preventDefault();
    if (props.value && !props.pending) void props.onSubmit();
  }
  return (
    <form className="form-grid" onSubmit={submit} noValidate>
      <Field
        label={props.label}
        type="password"
        autoComplete="current-password"
        value={props.value}
        error={props.error}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <FormActions
        className={props.actionsClassName ?? 'actions'}
        cancelLabel={props.cancelLabel}
        onCancel={props.onCancel}
        submitLabel={props.confirmLabel}
        busy={props.pending || !props.value}
        danger={props.danger}
      />
    </form>
  );
}
