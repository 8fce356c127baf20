import { REPORT_EXPLANATION_MAX, REPORT_EXPLANATION_MIN, REPORT_REASONS, type ReportReason, type ReportSubjectType } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { FormActions } from '../../../components/ui/form-actions';
import { Modal, ModalCloseRow } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useCreateReport } from '../api/reports';
import './reports.css';

type Props = { subjectType: ReportSubjectType; subjectId: number; title: string; onClose: () => void };

/**
 * 'Report' (issue 33, notice and action): the reason, an explanation, the name (needed for a
 * copyright claim), a guest's e-mail and the good-faith statement. The answer confirms it.
 */
export function ReportDialog({ subjectType, subjectId, title, onClose }: Props) {
  const { t } = useTranslation();
  const auth = useAuth();
  const signedIn = Boolean(auth.data?.authenticated);
  const create = useCreateReport();
  const [reason, setReason] = useState<ReportReason>('illegal_content');
  const [explanation, setExplanation] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [goodFaith, setGoodFaith] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setError(null);
    try {
      const answer = await create.mutateAsync({
        subject_type: subjectType,
        subject_id: subjectId,
        reason,
        explanation: explanation.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(email.trim() ? { email: email.trim() } : {}),
        good_faith: goodFaith,
      });
      setDone(answer.message);
    } catch (err) {
      const fields = err instanceof ApiError ? err.errors : {};
      const placed: Record<string, string> = {};
      for (const f of ['reason', 'explanation', 'name', 'email', 'good_faith', 'subject_id']) if (fields[f]?.[0]) placed[f] = fields[f]![0]!;
      setErrors(placed);
      if (!Object.keys(placed).length) setError(serverMessageOr(err, t('reports.send_failed')));
    }
  }

  return (
    <Modal title={t('reports.title')} onClose={onClose} testId="report-dialog" className="report-dialog">
      <p className="product-name">{title}</p>
      {done ? (
        <div role="status">
          <p>{done}</p>
          <ModalCloseRow label={t('reports.close')} onClose={onClose} className="buy-dialog-actions" autoFocus />
        </div>
      ) : (
        <form onSubmit={submit} className="report-form" noValidate>
          <label className="field">
            <span>{t('reports.reason')}</span>
            <select value={reason} onChange={(e) => setReason(e.target.value as ReportReason)}>
              {REPORT_REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`reports.reason_${r}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('reports.explanation')}</span>
            <textarea
              value={explanation}
              onChange={(e) => setExplanation(e.target.value)}
              minLength={REPORT_EXPLANATION_MIN}
              maxLength={REPORT_EXPLANATION_MAX}
              rows={5}
              placeholder={t('reports.explanation_hint')}
              aria-invalid={errors.explanation ? true : undefined}
            />
          </label>
          {errors.explanation && <span className="error-text small">{errors.explanation}</span>}
          <label className="field">
            <span>{reason === 'copyright' ? t('reports.name_required') : t('reports.name')}</span>
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} autoComplete="name" aria-invalid={errors.name ? true : undefined} />
          </label>
          {errors.name && <span className="error-text small">{errors.name}</span>}
          {!signedIn && (
            <label className="field">
              <span>{t('reports.email')}</span>
              <input
                type="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                autoComplete="email"
                aria-invalid={errors.email ? true : undefined}
              />
            </label>
          )}
          {errors.email && <span className="error-text small">{errors.email}</span>}
          <label className="checkbox-field">
            <input type="checkbox" checked={goodFaith} onChange={(e) => setGoodFaith(e.target.checked)} />
            <span>{t('reports.good_faith')}</span>
          </label>
          {errors.good_faith && <span className="error-text small">{errors.good_faith}</span>}
          {errors.subject_id && <p className="error-text">{errors.subject_id}</p>}
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          <FormActions
            className="buy-dialog-actions"
            cancelLabel={t('reports.cancel')}
            onCancel={onClose}
            submitLabel={t('reports.send')}
            busy={create.isPending}
          />
        </form>
      )}
    </Modal>
  );
}

/** The 'Report' link that opens the dialog, for a product, a review, a creator profile or a chat message. */
export function ReportLink({ subjectType, subjectId, title, className = '' }: Omit<Props, 'onClose'> & { className?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={`link-button report-link ${className}`.trim()} onClick={() => setOpen(true)} data-testid={`report-${subjectType}`}>
        {t('reports.link')}
      </button>
      {open && <ReportDialog subjectType={subjectType} subjectId={subjectId} title={title} onClose={() => setOpen(false)} />}
    </>
  );
}
