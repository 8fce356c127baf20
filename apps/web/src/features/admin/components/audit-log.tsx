import { AUDIT_SUBJECTS } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { FilterSelect } from '../../../components/ui/filter-select';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { type AuditFilters, useAudit } from '../api/admin-api';
import { AdminRows, AdminTable } from './admin-table';

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

/** Every staff action with who, what, when, before and after; filtered by staff member and by subject. */
export function AuditLog() {
  const { t } = useTranslation();
  const [staffId, setStaffId] = useState('');
  const [subjectType, setSubjectType] = useState('');
  const [subjectId, setSubjectId] = useState('');
  const [filters, setFilters] = useState<AuditFilters>({});
  const audit = useAudit(filters);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFilters({
      ...(staffId ? { staff_id: staffId } : {}),
      ...(subjectType ? { subject: subjectId ? `${subjectType}:${subjectId}` : subjectType } : {}),
    });
  };
  return (
    <section className="admin-section" aria-labelledby="audit-title">
      <h2 id="audit-title">{t('admin.audit_title')}</h2>
      <form className="admin-form-row" onSubmit={onSubmit} aria-label={t('admin.audit_filters')}>
        <label>
          {t('admin.staff_id')}
          <input type="number" min="1" value={staffId} onChange={(e) => setStaffId(e.target.value)} />
        </label>
        <FilterSelect label={t('admin.subject')} value={subjectType} onChange={setSubjectType} options={AUDIT_SUBJECTS} all="first" />
        <label>
          {t('admin.subject_id')}
          <input type="number" min="1" value={subjectId} onChange={(e) => setSubjectId(e.target.value)} disabled={!subjectType} />
        </label>
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </form>
      <AdminRows query={audit} empty={t('admin.audit_empty')}>
        {(rows) => (
          <AdminTable columns={[t('admin.date'), t('admin.staff'), t('admin.action'), t('admin.subject'), t('admin.before'), t('admin.after')]}>
            {rows.map((a) => (
              <tr key={a.id}>
                <td>{formatDateTime(a.at, true)}</td>
                <td>
                  @{a.staff.nickname} <span className="muted small">#{a.staff.id}</span>
                </td>
                <td>{a.action}</td>
                <td>
                  {a.subject_type} #{a.subject_id}
                </td>
                <td>
                  <code>{json(a.before)}</code>
                </td>
                <td>
                  <code>{json(a.after)}</code>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminRows>
    </section>
  );
}
