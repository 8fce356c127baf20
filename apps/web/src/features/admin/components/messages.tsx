import type { ContactMessageView } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { AdminSection } from '../../../components/ui/admin-section';
import { StatusFilter } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMessageHandled, useMessageReply, useMessages } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminList } from './admin-table';

const MESSAGE_STATUSES = ['open', 'handled', 'all'] as const;

/** Contact-form messages: open ones oldest first; reply by e-mail (through the outbox) or mark handled. */
export function Messages() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<(typeof MESSAGE_STATUSES)[number]>('open');
  const messages = useMessages(status);
  return (
    <AdminSection
      id="messages"
      title={t('admin.messages_title')}
      tools={
        <StatusFilter value={status} onChange={setStatus} options={MESSAGE_STATUSES} optionLabel={(s) => t(s === 'all' ? 'admin.all' : `admin.message_${s}`)} />
      }
    >
      <AdminList query={messages} empty={t('admin.messages_empty')} rowKey={(m) => m.id}>
        {(m) => <Message message={m} />}
      </AdminList>
    </AdminSection>
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
