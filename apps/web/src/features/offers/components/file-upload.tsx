import { type DragEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n-runtime';

/** SPEC §5 upload component: the default accepted extensions; a caller may allow more. */
export const DEFAULT_UPLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif'] as const;

const extensionOf = (name: string) => (name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '');
const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif']);

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/**
 * SPEC §5 upload component: a wrong extension gives 'File type not supported', a file above the
 * limit 'File size exceeds {n}MB limit'; a refused file is not kept. Picks by the file dialog or
 * by dropping a file on it; shows the chosen file (a preview for an image) with a way to remove it.
 */
export function FileUpload({
  label,
  value,
  onChange,
  onReject,
  error,
  extensions = DEFAULT_UPLOAD_EXTENSIONS,
  maxBytes,
  disabled = false,
}: {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  onReject: (message: string) => void;
  error?: string;
  extensions?: readonly string[];
  maxBytes: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [over, setOver] = useState(false);
  const maxSize = Math.round(maxBytes / 1024 / 1024);
  const preview = useMemo(
    () => (value && IMAGE_EXTENSIONS.has(extensionOf(value.name)) && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(value) : null),
    [value],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  function take(file: File | undefined) {
    if (!file) return;
    if (!extensions.includes(extensionOf(file.name))) return onReject(t('offers.upload_type'));
    if (file.size > maxBytes) return onReject(t('offers.upload_too_big', { maxSize }));
    onChange(file);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    if (!disabled) take(e.dataTransfer.files?.[0]);
  }

  return (
    <div className="field upload-field">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <div
        role="group"
        aria-labelledby={`${id}-label`}
        className="upload-drop"
        data-over={over || undefined}
        data-invalid={error ? true : undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        {value ? (
          <div className="upload-chosen">
            {preview && (
              <img
                src={preview}
                alt=""
                width={56}
                height={56}
                onError={(e) => {
                  e.currentTarget.style.display = 'none';
                }}
              />
            )}
            <div className="upload-chosen-text">
              <strong>{value.name}</strong>
              <span className="muted small">{sizeText(value.size)}</span>
            </div>
            <button
              type="button"
              className="link-button"
              onClick={() => onChange(null)}
              disabled={disabled}
              aria-label={t('offers.upload_remove', { name: value.name })}
            >
              {t('offers.upload_remove_short')}
            </button>
          </div>
        ) : (
          <p className="upload-prompt">
            <label htmlFor={id} className="button">
              {t('offers.upload_choose')}
            </label>{' '}
            <span className="muted">{t('offers.upload_drop')}</span>
          </p>
        )}
        <input
          id={id}
          className="visually-hidden"
          type="file"
          aria-labelledby={`${id}-label`}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          accept={extensions.map((e) => `.${e}`).join(',')}
          disabled={disabled}
          onChange={(e) => {
            take(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : (
        <p className="field-hint" id={`${id}-hint`}>
          {t('offers.upload_rules', { maxSize })}
        </p>
      )}
    </div>
  );
}
