/**
 * A form's closing row: the button that leaves without sending, then the submit button (primary, or
 * danger when what it does cannot be undone). `busy` holds the submit button while the call runs or
 * the form is not ready.
 */
export function FormActions({
  cancelLabel,
  onCancel,
  submitLabel,
  busy,
  danger = false,
  className = 'modal-actions',
}: {
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  busy?: boolean;
  danger?: boolean;
  /** The class of the row, as the surrounding dialog or panel lays it out. */
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="button" className="button" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button type="submit" className={`button ${danger ? 'danger' : 'primary'}`} disabled={busy}>
        {submitLabel}
      </button>
    </div>
  );
}
