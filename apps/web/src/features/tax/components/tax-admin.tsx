import type { VatRate } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useOssReport, useSaveVatRate, useVatRates } from '../api/tax';

const eur = (minor: number) => (minor / 100).toFixed(2);
const thisQuarter = () => {
  const d = new Date();
  return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
};

/** Back office › Tax (issue 33): the One-Stop Shop report of a quarter and the VAT rates table. */
export function TaxAdmin() {
  return (
    <>
      <OssSection />
      <RatesSection />
    </>
  );
}

function OssSection() {
  const { t } = useTranslation();
  const [quarter, setQuarter] = useState(thisQuarter());
  const report = useOssReport(quarter);
  return (
    <section className="admin-section" aria-labelledby="oss-title">
      <div className="admin-toolbar">
        <h2 id="oss-title">{t('tax.oss_title')}</h2>
        <label className="field-inline">
          {t('tax.quarter')}
          <input value={quarter} onChange={(e) => setQuarter(e.target.value.toUpperCase())} maxLength={7} pattern="20\d\d-Q[1-4]" />
        </label>
        <a className="button" href={`/api/admin/tax/oss.csv?quarter=${encodeURIComponent(quarter)}`} download>
          {t('tax.csv')}
        </a>
      </div>
      {report.isError && <p className="error-text">{serverMessageOr(report.error, t('tax.load_failed'))}</p>}
      {report.data && (
        <>
          <table className="admin-table" data-testid="oss-table">
            <thead>
              <tr>
                <th>{t('tax.country')}</th>
                <th>{t('tax.rate')}</th>
                <th>{t('tax.net')}</th>
                <th>{t('tax.vat')}</th>
                <th>{t('tax.sales')}</th>
                <th>{t('tax.refunds')}</th>
              </tr>
            </thead>
            <tbody>
              {report.data.rows.map((r) => (
                <tr key={`${r.country}:${r.rate}`}>
                  <td>{r.country}</td>
                  <td>{r.rate} %</td>
                  <td>{eur(r.net_minor)} €</td>
                  <td>{eur(r.vat_minor)} €</td>
                  <td>{r.sales}</td>
                  <td>{r.refunds}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className={report.data.total_vat_minor === report.data.ledger_vat_minor ? 'muted small' : 'error-text'} data-testid="oss-ledger">
            {t('tax.ledger_check', { report: eur(report.data.total_vat_minor), ledger: eur(report.data.ledger_vat_minor) })}
          </p>
        </>
      )}
    </section>
  );
}

function RatesSection() {
  const { t } = useTranslation();
  const rates = useVatRates();
  const [editing, setEditing] = useState<Partial<VatRate> | null>(null);
  return (
    <section className="admin-section" aria-labelledby="rates-title">
      <div className="admin-toolbar">
        <h2 id="rates-title">{t('tax.rates_title')}</h2>
        <button type="button" className="button" onClick={() => setEditing({})}>
          {t('tax.add_rate')}
        </button>
      </div>
      {editing && <RateForm rate={editing} onDone={() => setEditing(null)} />}
      {rates.isError && <p className="error-text">{serverMessageOr(rates.error, t('tax.load_failed'))}</p>}
      <table className="admin-table" data-testid="rates-table">
        <thead>
          <tr>
            <th>{t('tax.country')}</th>
            <th>{t('tax.rate')}</th>
            <th>{t('tax.valid_from')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rates.data?.map((r) => (
            <tr key={r.id}>
              <td>{r.country}</td>
              <td>{r.rate} %</td>
              <td>{r.valid_from}</td>
              <td>
                <button type="button" className="button small" onClick={() => setEditing(r)}>
                  {t('tax.edit')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RateForm({ rate, onDone }: { rate: Partial<VatRate>; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveVatRate();
  const [country, setCountry] = useState(rate.country ?? '');
  const [value, setValue] = useState(rate.rate === undefined ? '' : String(rate.rate));
  const [validFrom, setValidFrom] = useState(rate.valid_from ?? '');
  const [error, setError] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await save.mutateAsync({ id: rate.id, country, rate: Number(value), valid_from: validFrom });
      onDone();
    } catch (err) {
      const fields = err instanceof ApiError ? Object.values(err.errors ?? {}).flat() : [];
      setError(fields.length ? fields.join(' ') : serverMessageOr(err, t('tax.save_failed')));
    }
  }
  return (
    <form className="admin-card" onSubmit={submit} noValidate data-testid="rate-form">
      <label className="field-inline">
        {t('tax.country')}
        <input value={country} onChange={(e) => setCountry(e.target.value.toUpperCase())} maxLength={2} />
      </label>
      <label className="field-inline">
        {t('tax.rate')}
        <input value={value} onChange={(e) => setValue(e.target.value)} inputMode="decimal" />
      </label>
      <label className="field-inline">
        {t('tax.valid_from')}
        <input type="date" value={validFrom} onChange={(e) => setValidFrom(e.target.value)} />
      </label>
      {error && <p className="error-text">{error}</p>}
      <button type="submit" className="button primary" disabled={save.isPending}>
        {t('tax.save')}
      </button>
      <button type="button" className="button" onClick={onDone}>
        {t('tax.cancel')}
      </button>
    </form>
  );
}
