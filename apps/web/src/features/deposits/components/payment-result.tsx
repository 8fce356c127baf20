import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { useMoney } from '../../currency';
import { depositStatusKey, useDepositCheckout, useDepositHistory } from '../api/deposits';
import { forgetReturn, leaveApp, readReturn } from '../return-to';
import './deposits.css';
import { InlineError } from '../../../components/ui/field';

/** SPEC §2 success page: the thanks, the deposit history loaded, View Deposits and Go to Dashboard. */
export function PaymentSuccess() {
  const { t } = useTranslation();
  const money = useMoney();
  const navigate = useNavigate();
  const history = useDepositHistory();
  const latest = history.data?.[0];
  const returnTo = readReturn();

  return (
    <PaymentState outcome="ok" title={t('payment.success_title')}>
      {latest && (
        <p data-testid="latest-deposit">
          {t('payment.latest_deposit', {
            amount: money.format(latest.amount, { code: latest.currency, symbol: latest.currencySymbol }),
            status: t(depositStatusKey[latest.status]),
          })}
        </p>
      )}
      <InlineError message={history.isError && t('deposit.history_failed')} />
      <div className="payment-actions">
        {returnTo && (
          <button
            type="button"
            className="button primary"
            onClick={() => {
              forgetReturn();
              navigate(returnTo);
            }}
          >
            {t('payment.back_to_purchase')}
          </button>
        )}
        <Link className={returnTo ? 'button' : 'button primary'} to="/dashboard/deposits">
          {t('payment.view_deposits')}
        </Link>
        <Link className="button" to="/dashboard">
          {t('payment.go_dashboard')}
        </Link>
      </div>
    </PaymentState>
  );
}

/**
 * SPEC §2 fail page: the error from the query (or 'An unknown error occurred'), Try Again and Go to
 * Dashboard. Try Again starts a new payment for the failed deposit's amount, currency and method
 * (issue 18 bug 6: going back opened the spent card page); without that deposit it opens Add Funds.
 */
export function PaymentFailed() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const error = params.get('error') || t('payment.unknown_error');
  const rawId = params.get('order_id') ?? '';
  const orderId = /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
  const history = useDepositHistory({ enabled: orderId !== null });
  const failed = orderId === null ? undefined : history.data?.find((d) => d.id === orderId && d.status !== 'success');
  const checkout = useDepositCheckout();

  const tryAgain = () => {
    if (!failed) {
      navigate('/deposit/create');
      return;
    }
    checkout.mutate(
      { input: { amount: failed.amount, currency: failed.currency, payment_method: failed.payment_method }, idempotencyKey: newIdempotencyKey() },
      {
        onSuccess: (started) => {
          if (started.redirect_url) leaveApp.to(started.redirect_url);
          else if (started.widget_data) navigate('/deposit/create');
          else navigate(`/processing-payment?order_id=${started.order_id}`);
        },
        // A method this deposit cannot be started with again (a chat image's card payment): Add Funds.
        onError: (err) => {
          if (err instanceof ApiError && err.field('payment_method')) navigate('/deposit/create');
        },
      },
    );
  };

  return (
    <PaymentState outcome="fail" title={t('payment.failed_title')}>
      <p role="alert" data-testid="payment-error">
        {error}
      </p>
      <InlineError message={checkout.error?.message} />
      <div className="payment-actions">
        <button type="button" className="button primary" onClick={tryAgain} disabled={checkout.isPending || (orderId !== null && history.isPending)}>
          {t('payment.try_again')}
        </button>
        <Link className="button" to="/dashboard">
          {t('payment.go_dashboard')}
        </Link>
      </div>
    </PaymentState>
  );
}

/** The frame of both result pages: the mark (✓ or !), the heading, then what the page says and offers. */
function PaymentState({ outcome, title, children }: { outcome: 'ok' | 'fail'; title: string; children: ReactNode }) {
  return (
    <section className="page narrow">
      <div className="payment-state">
        <span className={`payment-icon ${outcome}`} aria-hidden="true">
          {outcome === 'ok' ? '✓' : '!'}
        </span>
        <h1>{title}</h1>
        {children}
      </div>
    </section>
  );
}
