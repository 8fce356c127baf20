import type { UserProfile } from '@atelier/shared';
import { lazy } from 'react';

/**
 * The back office's public face. Everything but `isStaff` is a lazy component: its code is fetched
 * only when staff open the back office (the /admin layout checks the role first), so no visitor
 * else downloads it.
 */
export const isStaff = (user: UserProfile | null | undefined) => user?.role === 'admin';

export const AdminShell = lazy(() => import('./components/admin-shell').then((m) => ({ default: m.AdminShell })));
export const ReviewQueue = lazy(() => import('./components/review-queue').then((m) => ({ default: m.ReviewQueue })));
export const PayoutsQueue = lazy(() => import('./components/payouts-queue').then((m) => ({ default: m.PayoutsQueue })));
export const RefundsQueue = lazy(() => import('./components/refunds-queue').then((m) => ({ default: m.RefundsQueue })));
export const Money = lazy(() => import('./components/money').then((m) => ({ default: m.Money })));
export const UsersAdmin = lazy(() => import('./components/users-admin').then((m) => ({ default: m.UsersAdmin })));
export const JobsQueue = lazy(() => import('./components/jobs-queue').then((m) => ({ default: m.JobsQueue })));
export const AuditLog = lazy(() => import('./components/audit-log').then((m) => ({ default: m.AuditLog })));
export const Messages = lazy(() => import('./components/messages').then((m) => ({ default: m.Messages })));
export const CatalogAdmin = lazy(() => import('./components/catalog-admin').then((m) => ({ default: m.CatalogAdmin })));
export const SiteSettings = lazy(() => import('./components/site-settings').then((m) => ({ default: m.SiteSettings })));
