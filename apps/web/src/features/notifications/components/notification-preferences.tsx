import type { NotificationPreference, PreferenceKind } from '@atelier/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/toast';
import { contract, payloadOf } from '../../../lib/api-contract';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import './notification-preferences.css';

const preferencesKey = ['notification-preferences'] as const;
const PREFERENCES_URL = '/api/user/notification-preferences' as const;

const KIND_WORDS: Record<PreferenceKind, string> = {
  sale_made: 'notifications.kind_sale_made',
  refund_requested: 'notifications.kind_refund_requested',
  refund_status: 'notifications.kind_refund_status',
  product_updated: 'notifications.kind_product_updated',
};

/**
 * Security › What you are told (issue 31): for each kind a user may silence, whether the bell rings
 * and whether an e-mail goes out. Every box is on until the user turns it off; a change is saved at once.
 */
export function NotificationPreferencesPanel() {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: preferencesKey, queryFn: ({ signal }) => payloadOf(contract.GET(PREFERENCES_URL, { signal })) });
  const save = useMutation({
    mutationFn: (change: NotificationPreference) => payloadOf(contract.PUT(PREFERENCES_URL, { body: { preferences: [change] } })),
    onSuccess: (next) => {
      queryClient.setQueryData(preferencesKey, next);
      toast.success(t('notifications.preferences_saved'));
    },
    onError: (err) => toast.error(serverMessageOr(err, t('app.connection_error'))),
  });
  const channels = [
    { channel: 'bell', label: t('notifications.channel_bell') },
    { channel: 'email', label: t('notifications.channel_email') },
  ] as const;
  return (
    <section className="panel preferences-panel" aria-labelledby="notification-preferences-title">
      <h2 id="notification-preferences-title">{t('notifications.preferences_title')}</h2>
      <p className="muted">{t('notifications.preferences_hint')}</p>
      {query.isError ? (
        <p role="alert">{t('notifications.preferences_error')}</p>
      ) : (
        <table className="preferences-table">
          <thead>
            <tr>
              <th scope="col">{t('notifications.preferences_kind')}</th>
              {channels.map((c) => (
                <th key={c.channel} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(query.data?.preferences ?? []).map((pref) => (
              <tr key={pref.kind}>
                <th scope="row">{t(KIND_WORDS[pref.kind])}</th>
                {channels.map((c) => (
                  <td key={c.channel}>
                    <input
                      type="checkbox"
                      aria-label={t('notifications.channel_label', { channel: c.label, kind: t(KIND_WORDS[pref.kind]) })}
                      checked={pref[c.channel]}
                      disabled={save.isPending}
                      onChange={(e) => save.mutate({ ...pref, [c.channel]: e.currentTarget.checked })}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
