import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { depositStatusKey, useDepositHistory } from '../api/deposits';
import { forgetReturn, readReturn } from '../return-to';
import './deposits.css';
import { InlineError } from '../../../components/ui/field';

/** SPEC §2 success page: the thanks, the deposit history loaded, View Deposits and Go to Dashboard. */
export function PaymentSuccess() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const history = useDepositHistory();
  const latest = history.data?.[0];
  const returnTo = readReturn();

  return (
    <section className="page narrow">
      <div className="payment-state">
        <span className="payment-icon ok" aria-hidden="true">
          ✓
        </span>
        <h1>{t('payment.success_title')}</h1>
        {latest && (
          <p data-testid="latest-deposit">
            {t('payment.latest_deposit', { amount: `${latest.amount.toFixed(2)} ${latest.currencySymbol}`, status: t(depositStatusKey[latest.status]) })}
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
      </div>
    </section>
  );
}

/** SPEC §2 fail page: the error from the query (or 'An unknown error occurred'), Try Again and Go to Dashboard. */
export function PaymentFailed() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const error = params.get('error') || t('payment.unknown_error');

  return (
    <section className="page narrow">
      <div className="payment-state">
        <span className="payment-icon fail" aria-hidden="true">
          !
        </span>
        <h1>{t('payment.failed_title')}</h1>
        <p role="alert" data-testid="payment-error">
          {error}
        </p>
        <div className="payment-actions">
          <button type="button" className="button primary" onClick={() => (window.history.length > 2 ? navigate(-1) : navigate('/'))}>
            {t('payment.try_again')}
          </button>
          <Link className="button" to="/dashboard">
            {t('payment.go_dashboard')}
          </Link>
        </div>
      </div>
    </section>
  );
}
