import { type Balance, SELLER_DETAILS_PATH, type Withdrawal } from '@atelier/shared';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Field, FormError } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { LoadFailed, SkeletonRows } from '../../../components/ui/load-states';
import { ModalCloseRow } from '../../../components/ui/modal';
import { Table } from '../../../components/ui/table';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { Price } from '../../catalog';
import { useMoney } from '../../currency';
import { type Contact, Modal, type PayoutBody, PayoutContactDialog, type PayoutMethod, PayoutPaymentDialog } from '../../offers';
import { useSettings } from '../../site';
import { useEarnings, useWithdraw, useWithdrawals, withdrawalOf } from '../api/earnings';
import './earnings.css';

function Amount({ value }: { value: Balance }) {
  return <Price amount={value.amount} currency={{ code: value.currency, symbol: value.currencySymbol }} />;
}

/** Euros from minor units as the withdraw form shows and sends them ("12.50"). */
const euros = (minor: number) => (minor / 100).toFixed(2);

/**
 * Issue 19: the creator's earnings: pending (still clearing), available (withdrawable; issue 31: the
 * note no longer promises shop spending, as the balance the buy dialog shows does not hold them)
 * and withdrawn, the next release date, a Withdraw button and the history of withdrawals.
 */
export function EarningsTab() {
  const { t } = useTranslation();
  const money = useMoney();
  const earnings = useEarnings();
  const withdrawals = useWithdrawals();
  const withdrawalMin = useSettings().data?.withdrawal_min;
  const [withdrawing, setWithdrawing] = useState(false);
  const inFlight = withdrawals.data?.some((w) => w.status === 'processing') ?? false;

  // A withdrawal that settles (paid, or failed and returned) changes the summary: ask again.
  const statuses = withdrawals.data?.map((w) => w.status).join() ?? '';
  const refetchSummary = earnings.refetch;
  const seen = useRef(statuses);
  useEffect(() => {
    if (seen.current === statuses) return;
    seen.current = statuses;
    void refetchSummary();
  }, [statuses, refetchSummary]);

  if (earnings.isPending) return <SkeletonRows />;
  if (earnings.isError) return <LoadFailed message={t('earnings.failed')} onRetry={() => earnings.refetch()} />;

  const e = earnings.data;
  const canWithdraw = e.available.amount_minor > 0 && !inFlight;
  return (
    <section className="earnings" aria-labelledby="earnings-title">
      <h2 id="earnings-title" className="visually-hidden">
        {t('earnings.title')}
      </h2>
      <div className="earnings-cards">
        <div className="earnings-card" data-testid="earnings-pending">
          <span className="earnings-label">{t('earnings.pending')}</span>
          <Amount value={e.pending} />
          <span className="small muted">
            {e.next_release_at === null ? t('earnings.nothing_pending') : t('earnings.next_release', { date: formatDateTime(e.next_release_at) })}
          </span>
        </div>
        <div className="earnings-card available" data-testid="earnings-available">
          <span className="earnings-label">{t('earnings.available')}</span>
          <Amount value={e.available} />
          <button type="button" className="button primary" onClick={() => setWithdrawing(true)} disabled={!canWithdraw}>
            {t('earnings.withdraw')}
          </button>
          {inFlight && <span className="small muted">{t('earnings.one_in_flight')}</span>}
        </div>
        {e.held.amount_minor > 0 && (
          <div className="earnings-card" data-testid="earnings-held">
            <span className="earnings-label">{t('earnings.held')}</span>
            <Amount value={e.held} />
            <span className="small muted">{t('earnings.held_note')}</span>
          </div>
        )}
        {e.owed.amount_minor > 0 && (
          <div className="earnings-card owed" data-testid="earnings-owed">
            <span className="earnings-label">{t('earnings.owed')}</span>
            <Amount value={e.owed} />
            <span className="small muted">{t('earnings.owed_note')}</span>
          </div>
        )}
        <div className="earnings-card" data-testid="earnings-withdrawn">
          <span className="earnings-label">{t('earnings.withdrawn')}</span>
          <Amount value={e.withdrawn} />
          <span className="small muted">
            {t('earnings.lifetime', { amount: money.format(e.lifetime.amount, { code: e.lifetime.currency, symbol: e.lifetime.currencySymbol }) })}
          </span>
        </div>
      </div>
      <p className="muted small earnings-note">{t('earnings.note')}</p>
      {/* Issue 31: the minimum and the payout schedule, told before the form. */}
      {withdrawalMin !== undefined && (
        <p className="muted small earnings-note" data-testid="earnings-schedule">
          {t('earnings.schedule', { min: money.format(withdrawalMin, { code: 'EUR', symbol: '€' }) })}
        </p>
      )}
      <WithdrawalHistory list={withdrawals.data} failed={withdrawals.isError} onRetry={() => withdrawals.refetch()} />
      {withdrawing && <WithdrawDialog availableMinor={e.available.amount_minor} onClose={() => setWithdrawing(false)} />}
    </section>
  );
}

function WithdrawalHistory({ list, failed, onRetry }: { list: Withdrawal[] | undefined; failed: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  let body: React.ReactNode;
  if (failed) body = <LoadFailed message={t('earnings.history_failed')} onRetry={onRetry} />;
  else if (!list) body = <div className="skeleton line" role="status" aria-label={t('app.loading')} />;
  else if (!list.length) body = <p className="state-block muted">{t('earnings.history_empty')}</p>;
  else
    body = (
      <Table className="withdrawal-table" columns={[t('deposit.date'), t('deposit.amount'), t('earnings.destination'), t('deposit.status_label')]}>
        {list.map((w) => (
          <tr key={w.id} data-testid="withdrawal-row" data-status={w.status}>
            <td>{formatDateTime(w.created_at)}</td>
            <td className="amount">
              <Amount value={w.amount} />
            </td>
            <td>
              {t(`payout.method_${w.method}`)}
              <span className="small muted withdrawal-destination">{w.destination}</span>
            </td>
            <td>
              <span className="withdrawal-status" data-status={w.status}>
                {t(`earnings.status_${w.status}`)}
              </span>
              {w.status === 'failed' && w.failure_reason && <span className="small withdrawal-reason">{w.failure_reason}</span>}
            </td>
          </tr>
        ))}
      </Table>
    );
  return (
    <section className="withdrawals" aria-labelledby="withdrawals-title">
      <h3 id="withdrawals-title">{t('earnings.history_title')}</h3>
      {body}
    </section>
  );
}

type Step =
  | { kind: 'amount'; amount: string }
  | { kind: 'contact'; amount: string; contact: Contact | null; method: PayoutMethod }
  | { kind: 'payment'; amount: string; contact: Contact; method: PayoutMethod }
  | { kind: 'done'; method: PayoutMethod }
  /** The server asks for trader details first (issue 33): its sentence, and the way to the form. */
  | { kind: 'details'; message: string };

/**
 * The withdrawal in the offer payout's steps: the amount (EUR, at most what is available), the
 * contact details and method, then the card or bank form. The server may ask for the second factor
 * again (the forms' step-up dialog); the retry sends the same Idempotency-Key.
 */
function WithdrawDialog({ availableMinor, onClose }: { availableMinor: number; onClose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  const withdraw = useWithdraw();
  const key = useRef(newIdempotencyKey());
  const [step, setStep] = useState<Step>({ kind: 'amount', amount: euros(availableMinor) });

  switch (step.kind) {
    case 'amount':
      return (
        <Modal title={t('earnings.withdraw_title')} onClose={onClose}>
          <AmountForm
            initial={step.amount}
            availableMinor={availableMinor}
            onNext={(amount) => setStep({ kind: 'contact', amount, contact: null, method: 'card' })}
            onCancel={onClose}
          />
        </Modal>
      );
    case 'contact':
      return (
        <PayoutContactDialog
          contact={step.contact}
          method={step.method}
          onNext={(contact, method) => setStep({ kind: 'payment', amount: step.amount, contact, method })}
          onClose={onClose}
        />
      );
    case 'payment': {
      const back = () => setStep({ kind: 'contact', amount: step.amount, contact: step.contact, method: step.method });
      const send = async (body: PayoutBody) => {
        try {
          await withdraw.mutateAsync({ body: withdrawalOf(body, step.amount), idempotencyKey: key.current });
        } catch (err) {
          if (err instanceof ApiError && err.field('seller_details')) {
            setStep({ kind: 'details', message: err.message });
            return new Promise<never>(() => {});
          }
          throw err;
        }
      };
      return (
        <PayoutPaymentDialog
          method={step.method}
          amount={money.format(Number(step.amount), 'EUR')}
          contact={step.contact}
          send={send}
          onBack={back}
          onDone={() => setStep({ kind: 'done', method: step.method })}
          submitLabel={t('earnings.withdraw')}
          onClose={onClose}
        />
      );
    }
    case 'details':
      return (
        <Modal title={t('sellers.title')} onClose={onClose}>
          <p role="alert">{step.message}</p>
          <div className="modal-actions">
            <Link className="button primary" to={SELLER_DETAILS_PATH} onClick={onClose}>
              {t('sellers.give_details')}
            </Link>
          </div>
        </Modal>
      );
    case 'done':
      return (
        <Modal title={t('earnings.withdraw_sent')} onClose={onClose}>
          <p>{step.method === 'sepa' ? t('payout.completed_sepa') : t('payout.completed_card')}</p>
          <ModalCloseRow label={t('offers.close')} onClose={onClose} />
        </Modal>
      );
  }
}

function AmountForm({
  initial,
  availableMinor,
  onNext,
  onCancel,
}: {
  initial: string;
  availableMinor: number;
  onNext: (amount: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | undefined>();

  function submit(e: FormEvent) {
    e.preventDefault();
    const text = value.trim().replace(',', '.');
    const minor = /^\d+(\.\d{1,2})?$/.test(text) ? Math.round(Number(text) * 100) : Number.NaN;
    if (!Number.isFinite(minor) || minor <= 0) return setError(t('earnings.amount_invalid'));
    if (minor > availableMinor) return setError(t('earnings.amount_above', { amount: money.format(availableMinor / 100, 'EUR') }));
    onNext(euros(minor));
  }

  return (
    <form className="payout-form" onSubmit={submit} noValidate>
      <p className="muted">{t('earnings.withdraw_intro', { amount: money.format(availableMinor / 100, 'EUR') })}</p>
      <Field
        label={t('earnings.amount_label')}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          setError(undefined);
        }}
        error={error}
      />
      <FormError message={null} />
      <FormActions cancelLabel={t('offers.cancel')} onCancel={onCancel} submitLabel={t('payout.continue')} />
    </form>
  );
}
