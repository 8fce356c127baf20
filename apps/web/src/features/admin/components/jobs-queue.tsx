import { ADMIN_JOB_STATES, ADMIN_JOBS_PER_PAGE, type AdminJob } from '@atelier/shared';
import { useState } from 'react';
import { AdminSection } from '../../../components/ui/admin-section';
import { StatusFilter } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAdminJobs, useRetryJob } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminRows, AdminTable } from './admin-table';

/** The job queue: what waits, runs and failed (with its last error), a page at a time; a failed or waiting job can be retried now. */
export function JobsQueue() {
  const { t } = useTranslation();
  const [state, setState] = useState<string>('');
  const [page, setPage] = useState(1);
  const jobs = useAdminJobs(state, page);
  const pages = jobs.data ? Math.max(1, Math.ceil(jobs.data.total / ADMIN_JOBS_PER_PAGE)) : 1;
  return (
    <AdminSection
      id="jobs"
      title={t('admin.jobs_title')}
      tools={
        <StatusFilter
          value={state}
          onChange={(s) => {
            setState(s);
            setPage(1);
          }}
          options={ADMIN_JOB_STATES}
          optionLabel={(s) => t(`admin.job_state_${s}`)}
          all="first"
        />
      }
    >
      <AdminRows query={jobs} empty={t('admin.jobs_empty')} isEmpty={(data) => data.jobs.length === 0}>
        {(data) => (
          <>
            <AdminTable
              columns={[
                '#',
                t('admin.job_name'),
                t('admin.status'),
                t('admin.job_attempts'),
                t('admin.job_last_error'),
                t('admin.job_run_at'),
                t('admin.actions'),
              ]}
            >
              {data.jobs.map((job) => (
                <JobRow key={job.id} job={job} />
              ))}
            </AdminTable>
            <div className="admin-inline-actions">
              <button type="button" className="button small-button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('admin.jobs_previous')}
              </button>
              <span className="muted small">{t('admin.jobs_page', { page, pages })}</span>
              <button type="button" className="button small-button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                {t('admin.jobs_next')}
              </button>
            </div>
          </>
        )}
      </AdminRows>
    </AdminSection>
  );
}

function JobRow({ job }: { job: AdminJob }) {
  const { t } = useTranslation();
  const toast = useToast();
  const retry = useRetryJob();
  return (
    <tr>
      <td>{job.id}</td>
      <td>
        <code>{job.name}</code>
      </td>
      <td>
        <span className="admin-status" data-status={job.state}>
          {t(`admin.job_state_${job.state}`)}
        </span>
        {job.state === 'running' && job.timeout_at !== null && (
          <div className="muted small">{t('admin.job_times_out', { at: formatDateTime(job.timeout_at, true) })}</div>
        )}
      </td>
      <td>{job.attempts}</td>
      <td className="small">{job.last_error ?? '—'}</td>
      <td>{formatDateTime(job.run_at, true)}</td>
      <td>
        {job.state !== 'running' && (
          <button
            type="button"
            className="button small-button"
            disabled={retry.isPending}
            onClick={() => retry.mutate(job.id, { onSuccess: () => toast.success(t('admin.job_retried')) })}
          >
            {t('admin.job_retry')}
          </button>
        )}
        <ActionError error={retry.error} />
      </td>
    </tr>
  );
}
