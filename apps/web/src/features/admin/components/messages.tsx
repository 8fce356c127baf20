import type { ContactMessageView } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMessageHandled, useMessageReply, useMessages } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminRows } from './admin-table';

/** Contact-form messages: open ones oldest first; reply by e-mail (through the outbox) or mark handled. */
export function Messages() {
  const { t } = useTranslation();
  const [status, setStatus] = useState('open');
  const messages = useMessages(status);
  return (
    <section className="admin-section" aria-labelledby="messages-title">
      <div className="admin-toolbar">
        <h2 id="messages-title">{t('admin.messages_title')}</h2>
        <label className="field-inline">
          {t('admin.status')}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="open">{t('admin.message_open')}</option>
            <option value="handled">{t('admin.message_handled')}</option>
            <option value="all">{t('admin.all')}</option>
          </select>
        </label>
      </div>
      <AdminRows query={messages} empty={t('admin.messages_empty')}>
        {(rows) => (
          <ol className="admin-list">
            {rows.map((m) => (
              <li key={m.id}>
                <Message message={m} />
              </li>
            ))}
          </ol>
        )}
      </AdminRows>
    </section>
  );
}

function Message({ message }: { message: ContactMessageView }) {
  const { t } = useTranslation();
  const toast = useToast();
  const handled = useMessageHandled();
  const reply = useMessageReply();
  const [subject, setSubject] = useState(t('admin.reply_subject'));
  const [text, setText] = useState('');
  const onReply = (e: FormEvent) => {
    e.preventDefault();
    reply.mutate({ id: message.id, subject, text }, { onSuccess: () => toast.success(t('admin.reply_sent', { email: message.email })) });
  };
  return (
    <article className="admin-card" aria-label={t('admin.message_from', { name: message.name })}>
      <header className="admin-card-head">
        <h3>
          {message.name} <span className="muted small">{message.email}</span>
        </h3>
        <span className="admin-status" data-status={message.handled_at ? 'paid' : 'pending'}>
          {message.handled_at ? t('admin.message_handled') : t('admin.message_open')}
        </span>
      </header>
      <p className="muted small">{formatDateTime(message.created_at)}</p>
      <p className="admin-message-text">{message.message}</p>
      <form className="admin-form" onSubmit={onReply} aria-label={t('admin.reply_title')}>
        <label className="admin-form-full">
          {t('admin.subject_line')}
          <input value={subject} onChange={(e) => setSubject(e.target.value)} required maxLength={200} />
        </label>
        <label className="admin-form-full">
          {t('admin.reply_text')}
          <textarea value={text} onChange={(e) => setText(e.target.value)} required rows={4} maxLength={10000} />
        </label>
        <div className="admin-form-actions">
          <button type="submit" className="button primary" disabled={reply.isPending}>
            {t('admin.send_reply')}
          </button>
          <button
            type="button"
            className="button"
            disabled={handled.isPending}
            onClick={() => handled.mutate({ id: message.id, handled: !message.handled_at })}
          >
            {message.handled_at ? t('admin.reopen') : t('admin.mark_handled')}
          </button>
        </div>
        <ActionError error={reply.error ?? handled.error} />
      </form>
    </article>
  );
}
