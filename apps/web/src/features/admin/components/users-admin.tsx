import type { AdminUser } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { TextAreaField } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { Modal } from '../../offers';
import { StaffSellerDetails } from '../../sellers';
import { useAdminUser, useAdminUsers, useFormatMinor, useUserAction } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminRows } from './admin-table';

/** Users: search, then one user's balance, journal, orders and offers, with block/unblock and the staff role. */
export function UsersAdmin() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const users = useAdminUsers(q);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setQ(draft.trim());
  };
  return (
    <section className="admin-section" aria-labelledby="users-title">
      <h2 id="users-title">{t('admin.users_title')}</h2>
      <form className="admin-form-row" onSubmit={onSubmit} role="search">
        <label className="grow">
          {t('admin.search_users')}
          <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
        </label>
        <button type="submit" className="button">
          {t('admin.search')}
        </button>
      </form>
      <div className="users-admin">
        <AdminRows query={users} empty={t('admin.users_empty')}>
          {(rows) => (
            <ul className="admin-rows user-list">
              {rows.map((u) => (
                <li key={u.id}>
                  <button type="button" className="link-button" aria-pressed={selected === u.id} onClick={() => setSelected(u.id)}>
                    #{u.id} @{u.nickname} · {u.email}
                  </button>
                  {u.role === 'admin' && <span className="admin-status">{t('admin.staff')}</span>}
                  {u.blocked && (
                    <span className="admin-status" data-status="failed">
                      {t('admin.blocked')}
                    </span>
                  )}
                  {u.disputed && (
                    <span className="admin-status" data-status="failed">
                      {t('admin.disputed')}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </AdminRows>
        {selected !== null && <UserDetail id={selected} />}
      </div>
    </section>
  );
}

function UserDetail({ id }: { id: number }) {
  const formatMinor = useFormatMinor();
  const { t } = useTranslation();
  const toast = useToast();
  const me = useAuth().data?.user;
  const detail = useAdminUser(id);
  const action = useUserAction();
  const [confirmBlock, setConfirmBlock] = useState(false);
  if (detail.isPending) return <Spinner />;
  if (detail.isError) return <p className="error-text">{detail.error.message}</p>;
  const { user, balance_minor, orders, offers, journal } = detail.data;
  const self = me?.id === user.id;
  const run = (a: 'block' | 'unblock' | 'role', role?: 'user' | 'admin') =>
    action.mutate({ id: user.id, action: a, role }, { onSuccess: () => toast.success(t('admin.saved')) });
  return (
    <article className="admin-card user-detail" aria-label={`@${user.nickname}`}>
      <header className="admin-card-head">
        <h3>
          {user.name} {user.surname} <span className="muted">@{user.nickname}</span>
        </h3>
        <span>{user.email}</span>
      </header>
      {user.disputed && (
        <p className="admin-status" data-status="failed" role="status">
          {t('admin.disputed_hint')}
        </p>
      )}
      <p>
        {t('admin.balance')}: <strong>{formatMinor(balance_minor)}</strong> · {t('admin.joined', { date: formatDateTime(user.created_at) })}
      </p>
      <div className="admin-form-actions">
        {user.blocked ? (
          <button type="button" className="button" onClick={() => run('unblock')} disabled={action.isPending}>
            {t('admin.unblock')}
          </button>
        ) : (
          <button type="button" className="button danger" onClick={() => setConfirmBlock(true)} disabled={action.isPending || self}>
            {t('admin.block')}
          </button>
        )}
        {confirmBlock && <BlockDialog user={user} onClose={() => setConfirmBlock(false)} />}
        {user.role === 'admin' ? (
          <button
            type="button"
            className="button"
            onClick={() => run('role', 'user')}
            disabled={action.isPending || self}
            title={self ? t('admin.cannot_revoke_self') : undefined}
          >
            {t('admin.revoke_staff')}
          </button>
        ) : (
          <button type="button" className="button" onClick={() => run('role', 'admin')} disabled={action.isPending}>
            {t('admin.grant_staff')}
          </button>
        )}
      </div>
      <ActionError error={action.error} />
      <StaffSellerDetails userId={user.id} />
      <h4>{t('admin.orders')}</h4>
      {orders.length === 0 ? (
        <p className="muted small">{t('admin.none')}</p>
      ) : (
        <ul className="admin-rows">
          {orders.map((o) => (
            <li key={o.id}>
              #{o.id} · {formatDateTime(o.created_at)} · {o.title} · {formatMinor(o.amount_minor)} · {o.status}
            </li>
          ))}
        </ul>
      )}
      <h4>{t('admin.offers')}</h4>
      {offers.length === 0 ? (
        <p className="muted small">{t('admin.none')}</p>
      ) : (
        <ul className="admin-rows">
          {offers.map((o) => (
            <li key={o.id}>
              #{o.id} · {formatDateTime(o.created_at)} · {o.title} · {formatMinor(o.user_price_minor)} · {t(`admin.offer_status_${o.status}`)}
            </li>
          ))}
        </ul>
      )}
      <h4>{t('admin.journal_title')}</h4>
      {journal.length === 0 ? (
        <p className="muted small">{t('admin.none')}</p>
      ) : (
        <ul className="admin-rows">
          {journal.map((j) => (
            <li key={`${j.transaction_id}-${j.amount_minor}`}>
              #{j.transaction_id} · {formatDateTime(j.created_at)} · {j.reason} · {formatMinor(j.amount_minor)}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/**
 * Staff confirm a block and give its reason (issue 18 bug 3); the reason goes into the audit log and
 * the e-mail the user gets. The server refuses a block without one as well.
 */
function BlockDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const action = useUserAction();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) {
      setError(t('admin.block_reason_required'));
      return;
    }
    action.mutate(
      { id: user.id, action: 'block', reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(t('admin.saved'));
          onClose();
        },
        onError: (err) => setError(err instanceof ApiError ? (err.field('reason') ?? err.message) : err.message),
      },
    );
  };
  return (
    <Modal title={t('admin.block_title', { name: `${user.name} ${user.surname}` })} onClose={onClose}>
      <form className="block-form" onSubmit={submit} noValidate>
        <p className="modal-intro">{t('admin.block_text')}</p>
        <TextAreaField
          id="block-reason"
          label={t('admin.block_reason')}
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
          error={error}
          required
        />
        <FormActions cancelLabel={t('admin.block_cancel')} onCancel={onClose} submitLabel={t('admin.block_confirm')} busy={action.isPending} danger />
      </form>
    </Modal>
  );
}
