import type { StatementOfReasons } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAppealReport, useMyStatements } from '../api/reports';
import './reports.css';

/** The statements of reasons about the creator's own content, each with its appeal (issue 33). */
export function MyStatements() {
  const { t } = useTranslation();
  const statements = useMyStatements();
  return (
    <section className="panel" aria-labelledby="statements-title">
      <h2 id="statements-title">{t('reports.statements_title')}</h2>
      {statements.isPending && <p>{t('app.loading')}</p>}
      {statements.isError && <p className="error-text">{serverMessageOr(statements.error, t('reports.load_failed'))}</p>}
      {statements.data?.length === 0 && <p className="muted">{t('reports.statements_empty')}</p>}
      <ul className="admin-cards">
        {statements.data?.map((s) => (
          <Statement key={s.report_id} statement={s} />
        ))}
      </ul>
    </section>
  );
}

function Statement({ statement: s }: { statement: StatementOfReasons }) {
  const { t } = useTranslation();
  const toast = useToast();
  const appeal = useAppealReport();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await appeal.mutateAsync({ id: s.report_id, message: message.trim() });
      toast.success(t('reports.appeal_sent'));
      setOpen(false);
    } catch (err) {
      setError(serverMessageOr(err, t('reports.send_failed')));
    }
  }
  return (
    <li className="admin-card statement" data-testid="statement">
      <h3>
        #{s.report_id} · {s.subject.link ? <Link to={s.subject.link}>{s.subject.title}</Link> : s.subject.title}
      </h3>
      <p>
        <strong>{t('reports.decision')}:</strong> {t(`reports.decision_${s.decision}`)} · <strong>{t('reports.ground')}:</strong>{' '}
        {t(`reports.ground_${s.ground}`)} · {formatDateTime(s.decided_at)}
      </p>
      <p>
        <strong>{t('reports.why')}:</strong> {s.explanation}
      </p>
      <p className="small">
        {t('reports.reported_for')}: {t(`reports.reason_${s.reason}`)}. {t('reports.automated_never')}
      </p>
      {s.appeal.appealed_at && (
        <p className="small">
          {t('reports.appealed_on', { date: formatDateTime(s.appeal.appealed_at) })}{' '}
          {s.appeal.outcome ? `${t(`reports.outcome_${s.appeal.outcome}`)} ${s.appeal.explanation ?? ''}` : t('reports.appeal_waiting')}
        </p>
      )}
      {s.appeal.open_until && !open && (
        <p>
          <span className="small muted">{t('reports.appeal_until', { date: formatDateTime(s.appeal.open_until) })}</span>{' '}
          <button type="button" className="button small-button" onClick={() => setOpen(true)}>
            {t('reports.appeal')}
          </button>
        </p>
      )}
      {open && (
        <form onSubmit={submit} className="report-form">
          <label className="field">
            <span>{t('reports.appeal_message')}</span>
            <textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={4} maxLength={5000} required />
          </label>
          {error && (
            <p className="error-text" role="alert">
              {error}
            </p>
          )}
          <div className="buy-dialog-actions">
            <button type="button" className="button" onClick={() => setOpen(false)}>
              {t('reports.cancel')}
            </button>
            <button type="submit" className="button primary" disabled={appeal.isPending || !message.trim()}>
              {t('reports.send_appeal')}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
