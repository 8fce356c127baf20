import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../components/ui/toast';
import { contract, payloadOf } from '../../../lib/api-contract';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';

const settingsKey = ['notification-settings'] as const;

/** Profile › Notifications: the weekly e-mail of new works by followed creators (on by default). */
export function DigestSetting() {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => payloadOf(contract.GET('/api/notifications/settings', { signal })) });
  const save = useMutation({
    mutationFn: (weekly: boolean) => payloadOf(contract.PUT('/api/notifications/settings', { body: { weekly_digest: weekly } })),
    onSuccess: (next) => {
      queryClient.setQueryData(settingsKey, next);
      toast.success(t(next.weekly_digest ? 'notifications.digest_on' : 'notifications.digest_off'));
    },
    onError: (err) => toast.error(serverMessageOr(err, t('app.connection_error'))),
  });
  return (
    <section className="panel" aria-labelledby="notification-settings-title">
      <h2 id="notification-settings-title">{t('notifications.settings_title')}</h2>
      <label className="field-inline">
        <input
          type="checkbox"
          checked={query.data?.weekly_digest ?? true}
          disabled={query.isPending || save.isPending}
          onChange={(e) => save.mutate(e.currentTarget.checked)}
        />{' '}
        {t('notifications.weekly_digest')}
      </label>
    </section>
  );
}
