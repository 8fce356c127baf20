import { type AdminReportGroup, REPORT_STATUSES, type ReportDecision, type ReportGround, type ReportStatus } from '@atelier/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { AdminSection } from '../../../components/ui/admin-section';
import { StatusFilter } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAdminReports, useDecideAppeal, useDecideReport } from '../api/reports';
import './reports.css';

/** Back office: the notice-and-action queue, grouped by what is reported (issue 33). */
export function ReportsQueue() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ReportStatus>('open');
  const groups = useAdminReports(status);
  return (
    <AdminSection
      id="reports"
      title={t('reports.queue_title')}
      tools={<StatusFilter value={status} onChange={setStatus} options={REPORT_STATUSES} optionLabel={(s) => t(`reports.status_${s}`)} />}
    >
      {groups.isPending && <p>{t('app.loading')}</p>}
      {groups.isError && <p className="error-text">{serverMessageOr(groups.error, t('reports.load_failed'))}</p>}
      {groups.data?.length === 0 && <p className="muted">{t('reports.queue_empty')}</p>}
      <ul className="admin-cards">
        {groups.data?.map((g) => (
          <ReportGroup key={`${g.subject.type}:${g.subject.id}`} group={g} />
        ))}
      </ul>
    </AdminSection>
  );
}

function ReportGroup({ group }: { group: AdminReportGroup }) {
  const { t } = useTranslation();
  const toast = useToast();
  const decide = useDecideReport();
  const decideAppeal = useDecideAppeal();
  const [decision, setDecision] = useState<ReportDecision>('remove');
  const [ground, setGround] = useState<ReportGround>('terms');
  const [explanation, setExplanation] = useState('');
  const first = group.reports[0]!;
  const appealed = group.reports.find((r) => r.status === 'appealed');
  const failure = decide.error ?? decideAppeal.error;
  return (
    <li className="admin-card" data-testid="report-group">
      <h3>
        {t(`reports.subject_${group.subject.type}`)} · {group.subject.link ? <Link to={group.subject.link}>{group.subject.title}</Link> : group.subject.title}
        {group.author && <span className="muted small"> · @{group.author.nickname}</span>}
        {group.moderation && <span className="admin-status"> {t(`reports.moderation_${group.moderation}`)}</span>}
      </h3>
      <ul className="refund-messages">
        {group.reports.map((r) => (
          <li key={r.id}>
            <strong>
              #{r.id} {t(`reports.reason_${r.reason}`)}
            </strong>{' '}
            <span className="muted small">
              {r.reporter.name ?? ''} &lt;{r.reporter.email}&gt; · {formatDateTime(r.created_at)}
            </span>
            <p>{r.explanation}</p>
            {r.decision && (
              <p className="small">
                {t(`reports.decision_${r.decision}`)} ({r.ground && t(`reports.ground_${r.ground}`)}): {r.decision_explanation}
              </p>
            )}
            {r.appeal_message && (
              <p className="small">
                <strong>{t('reports.appeal')}:</strong> {r.appeal_message} {r.appeal_outcome && `· ${t(`reports.outcome_${r.appeal_outcome}`)}`}
              </p>
            )}
          </li>
        ))}
      </ul>
      {(first.status === 'open' || appealed) && (
        <div className="report-form">
          <label className="field">
            <span>{t('reports.decision_explanation')}</span>
            <textarea value={explanation} onChange={(e) => setExplanation(e.target.value)} rows={3} maxLength={5000} />
          </label>
          {first.status === 'open' ? (
            <div className="admin-inline-actions">
              <select aria-label={t('reports.decision')} value={decision} onChange={(e) => setDecision(e.target.value as ReportDecision)}>
                {(['remove', 'restrict', 'no_action'] as const).map((d) => (
                  <option key={d} value={d}>
                    {t(`reports.decision_${d}`)}
                  </option>
                ))}
              </select>
              <select aria-label={t('reports.ground')} value={ground} onChange={(e) => setGround(e.target.value as ReportGround)}>
                {(['terms', 'law'] as const).map((g) => (
                  <option key={g} value={g}>
                    {t(`reports.ground_${g}`)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button small-button primary"
                disabled={decide.isPending}
                onClick={() =>
                  decide.mutate({ id: first.id, decision, ground, explanation: explanation.trim() }, { onSuccess: () => toast.success(t('reports.decided')) })
                }
              >
                {t('reports.decide')}
              </button>
            </div>
          ) : (
            <div className="admin-inline-actions">
              {(['upheld', 'reversed'] as const).map((outcome) => (
                <button
                  key={outcome}
                  type="button"
                  className={`button small-button ${outcome === 'reversed' ? 'primary' : ''}`}
                  disabled={decideAppeal.isPending}
                  onClick={() =>
                    decideAppeal.mutate(
                      { id: appealed!.id, outcome, explanation: explanation.trim() },
                      { onSuccess: () => toast.success(t('reports.decided')) },
                    )
                  }
                >
                  {t(`reports.appeal_${outcome}`)}
                </button>
              ))}
            </div>
          )}
          {failure && (
            <p className="error-text" role="alert">
              {serverMessageOr(failure, t('reports.send_failed'))}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
