import { VERSION_NOTES_MAX } from '@atelier/shared';
import { type FormEvent, useRef, useState } from 'react';
import { Field, FormError, TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useProductVersions, useUploadVersion } from '../api/versions';
import { VersionList } from './version-list';
import './versions.css';

const ACCEPT = '.jpg,.jpeg,.png,.gif,.svg,.pdf,.doc,.docx,.txt';

/**
 * Issue 34: the creator ships a new version of their listed work (a file and what changed), and sees
 * every version with its state. The server checks the file as an offer's and decides on review.
 */
export function UploadVersionForm({ productId }: { productId: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const upload = useUploadVersion(productId);
  const versions = useProductVersions(productId);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<{ file?: string; notes?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const found: { file?: string; notes?: string } = {};
    if (!file) found.file = t('versions.choose_file');
    if (!notes.trim()) found.notes = t('versions.notes_required');
    else if (notes.trim().length > VERSION_NOTES_MAX) found.notes = t('versions.notes_too_long', { max: VERSION_NOTES_MAX });
    setErrors(found);
    if (found.file || found.notes || !file) return;
    try {
      const answer = await upload.mutateAsync({ file, notes: notes.trim() });
      if (answer.message) toast.success(answer.message);
      setFile(null);
      setNotes('');
      if (fileInput.current) fileInput.current.value = '';
    } catch (err) {
      if (err instanceof ApiError && (err.field('file') || err.field('notes'))) setErrors({ file: err.field('file'), notes: err.field('notes') });
      else setError(err instanceof Error && err.message ? err.message : t('versions.error'));
    }
  }

  return (
    <section className="upload-version" aria-labelledby={`upload-version-${productId}`}>
      <h3 id={`upload-version-${productId}`}>{t('versions.upload_title')}</h3>
      <p className="muted small">{t('versions.upload_hint')}</p>
      <form onSubmit={submit} noValidate aria-busy={upload.isPending}>
        <Field
          ref={fileInput}
          label={t('versions.file')}
          type="file"
          accept={ACCEPT}
          hint={t('versions.file_hint')}
          error={errors.file}
          disabled={upload.isPending}
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setErrors((prev) => ({ ...prev, file: undefined }));
          }}
        />
        <TextAreaField
          label={t('versions.notes')}
          hint={t('versions.notes_hint')}
          rows={3}
          value={notes}
          error={errors.notes}
          disabled={upload.isPending}
          onChange={(e) => {
            setNotes(e.target.value);
            setErrors((prev) => ({ ...prev, notes: undefined }));
          }}
        />
        <FormError message={error} />
        <button type="submit" className="button primary" disabled={upload.isPending}>
          {upload.isPending ? t('auth.processing') : t('versions.submit')}
        </button>
      </form>
      {versions.data && versions.data.versions.length > 0 && (
        <details className="owned-versions">
          <summary>{t('versions.history')}</summary>
          <VersionList versions={versions.data.versions} showStatus />
        </details>
      )}
    </section>
  );
}
