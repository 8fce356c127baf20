import type { AdminSettings } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAdminSettings, useSaveSettings } from '../api/admin-api';
import { ActionError } from './action-error';
import { CurrenciesEditor, SocialLinksEditor, StaticPagesEditor } from './site-content';

/** The site settings: registration, e-mail verification, the internal currency's name, commission, deposit bounds, generation price, the earnings clearing period and the smallest withdrawal. */
export function SiteSettings() {
  const { t } = useTranslation();
  const settings = useAdminSettings();
  return (
    <section className="admin-section" aria-labelledby="site-title">
      <h2 id="site-title">{t('admin.site_title')}</h2>
      {settings.isPending ? (
        <Spinner />
      ) : settings.isError ? (
        <p className="error-text" role="alert">
          {settings.error.message}
        </p>
      ) : (
        <SettingsForm initial={settings.data} />
      )}
      <StaticPagesEditor />
      <CurrenciesEditor />
      <SocialLinksEditor />
    </section>
  );
}

type NumberKey = 'commission_percent' | 'deposit_min' | 'deposit_max' | 'generation_price' | 'earnings_clearing_days' | 'withdrawal_min';
/** The form keeps each number as typed ("2,5") until it is sent. */
type SettingsDraft = Omit<AdminSettings, NumberKey> & Record<NumberKey, number | string>;

function SettingsForm({ initial }: { initial: AdminSettings }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveSettings();
  const [v, setV] = useState<SettingsDraft>(initial);
  const num = (key: NumberKey, label: string) => (
    <label>
      {label}
      <input inputMode="decimal" value={String(v[key])} onChange={(e) => setV({ ...v, [key]: e.target.value })} required />
    </label>
  );
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const n = (x: unknown) => Number(String(x).replace(',', '.'));
    save.mutate(
      {
        ...v,
        commission_percent: n(v.commission_percent),
        deposit_min: n(v.deposit_min),
        deposit_max: n(v.deposit_max),
        generation_price: n(v.generation_price),
        earnings_clearing_days: n(v.earnings_clearing_days),
        withdrawal_min: n(v.withdrawal_min),
      },
      { onSuccess: () => toast.success(t('admin.saved')) },
    );
  };
  return (
    <form className="admin-form" onSubmit={onSubmit} aria-label={t('admin.site_title')}>
      <label className="field-inline">
        <input type="checkbox" checked={v.is_reg_enabled} onChange={(e) => setV({ ...v, is_reg_enabled: e.target.checked })} />
        {t('admin.registration_open')}
      </label>
      <label className="field-inline">
        <input type="checkbox" checked={v.is_email_verification_enabled} onChange={(e) => setV({ ...v, is_email_verification_enabled: e.target.checked })} />
        {t('admin.email_verification')}
      </label>
      <div className="admin-form-row">
        <label className="grow">
          {t('admin.currency_name')}
          <input value={v.internal_currency_name} onChange={(e) => setV({ ...v, internal_currency_name: e.target.value })} required maxLength={40} />
        </label>
        <label className="grow">
          {t('admin.support_email')}
          <input type="email" value={v.support_email} onChange={(e) => setV({ ...v, support_email: e.target.value })} />
        </label>
      </div>
      <div className="admin-form-row">
        {num('commission_percent', t('admin.commission'))}
        {num('deposit_min', t('admin.deposit_min'))}
        {num('deposit_max', t('admin.deposit_max'))}
        {num('generation_price', t('admin.generation_price'))}
      </div>
      {/* Issue 19: how long a creator's share of a sale is pending, and the smallest withdrawal. */}
      <div className="admin-form-row">
        {num('earnings_clearing_days', t('admin.earnings_clearing_days'))}
        {num('withdrawal_min', t('admin.withdrawal_min'))}
      </div>
      <label className="admin-form-full">
        {t('admin.copyright')}
        <input value={v.copyright} onChange={(e) => setV({ ...v, copyright: e.target.value })} maxLength={200} />
      </label>
      <div className="admin-form-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('admin.save')}
        </button>
      </div>
      <ActionError error={save.error} />
    </form>
  );
}
