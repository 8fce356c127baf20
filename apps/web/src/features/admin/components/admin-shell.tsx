import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import './admin.css';
import { StaffStepUp } from './staff-step-up';

const SECTIONS = [
  { to: '/admin', label: 'admin.nav_review', end: true },
  { to: '/admin/payouts', label: 'admin.nav_payouts' },
  { to: '/admin/refunds', label: 'admin.nav_refunds' },
  { to: '/admin/reports', label: 'reports.queue_title' },
  { to: '/admin/money', label: 'admin.nav_money' },
  { to: '/admin/tax', label: 'tax.admin_title' },
  { to: '/admin/catalog', label: 'admin.nav_catalog' },
  { to: '/admin/users', label: 'admin.nav_users' },
  { to: '/admin/messages', label: 'admin.nav_messages' },
  { to: '/admin/site', label: 'admin.nav_site' },
  { to: '/admin/audit', label: 'admin.nav_audit' },
  { to: '/admin/jobs', label: 'admin.nav_jobs' },
  { to: '/admin/analytics', label: 'admin.nav_analytics' },
  { to: '/admin/discounts', label: 'discounts.title' },
  { to: '/admin/bundles', label: 'bundles.review_title' },
] as const;

/** The back office frame: its title and the section nav; the section shows below. */
export function AdminShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="admin">
      <header className="admin-header">
        <h1>{t('admin.title')}</h1>
        <nav className="admin-nav" aria-label={t('admin.sections')}>
          {SECTIONS.map((s) => (
            <NavLink key={s.to} to={s.to} end={'end' in s}>
              {t(s.label)}
            </NavLink>
          ))}
        </nav>
      </header>
      {children}
      <StaffStepUp />
    </div>
  );
}
