import { PROCESSING_REDIRECT_MS } from '@atelier/shared/constants';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { depositStatusKey, useDepositStatus } from '../api/deposits';
import { leaveApp } from '../return-to';
import './deposits.css';
import { InlineError } from '../../../components/ui/field';

/**
 * SPEC §2 processing-payment and §4 deposit status polling: asks every 5 s; success goes to the
 * success page, failed or error to the fail page with the message; a redirect_url is followed.
 * Without a valid order_id it says 'Invalid order ID' and goes to Add Funds after 3 s.
 */
export function ProcessingPayment() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const raw = params.get('order_id') ?? '';
  const orderId = /^\d{1,15}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const status = useDepositStatus(orderId);
  const unknownOrder = orderId === null || (status.error instanceof ApiError && status.error.status === 404);

  useEffect(() => {
    if (!unknownOrder) return;
    const timer = setTimeout(() => navigate('/deposit/create', { replace: true }), PROCESSING_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [unknownOrder, navigate]);

  const answer = status.data;
  useEffect(() => {
    if (!answer) return;
    if (answer.status === 'success') navigate('/success-payment', { replace: true });
    else if (answer.status === 'failed' || answer.status === 'error')
      navigate(`/fail-payment?order_id=${orderId}&error=${encodeURIComponent(answer.error_message || t('payment.failed'))}`, { replace: true });
    else if (answer.redirect_url) leaveApp.to(answer.redirect_url);
  }, [answer, navigate, t, orderId]);

  if (unknownOrder)
    return (
      <section className="page narrow">
        <div className="payment-state" role="alert">
          <h1>{t('payment.invalid_order')}</h1>
        </div>
      </section>
    );

  return (
    <section className="page narrow">
      <div className="payment-state">
        <Spinner />
        <h1>{t('payment.processing_title')}</h1>
        <p>{t('payment.processing_text')}</p>
        <p className="muted" role="status" data-testid="deposit-status">
          {answer ? t('payment.status', { status: t(depositStatusKey[answer.status]) }) : null}
        </p>
        <InlineError message={status.isError && t('deposit.status_failed')} />
      </div>
    </section>
  );
}
