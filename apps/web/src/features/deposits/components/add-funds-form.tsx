import type { DepositCheckoutResult, PaymentMethod } from '@atelier/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { serverMessageOr as serverMessage } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { useDebounced } from '../../../lib/use-debounced';
import { Price } from '../../catalog';
import { useMoney, useSelectedCurrency } from '../../currency';
import { useBalance, useInternalCurrencyName } from '../api/balance';
import { fetchPaymentMethods, useDepositCheckout, validateDepositAmount } from '../api/deposits';
import { leaveApp, rememberReturn, safeReturnPath } from '../return-to';
import { PaymentWidget } from './payment-widget';
import './deposits.css';
import { InlineError } from '../../../components/ui/field';

/** Where a failed check belongs: under the amount, or as the form's general message (SPEC §8). */
class DepositCheckError extends Error {
  constructor(
    message: string,
    readonly where: 'amount' | 'general',
  ) {
    super(message);
  }
}

const sameInput = (a: { amount: string; currency: string }, b: { amount: string; currency: string }) => a.amount === b.amount && a.currency === b.currency;

/** Live validation: the amount first (POST /deposit/validate-amount), then the methods (POST /deposit/validate). A 404 counts as success. */
function usePaymentMethods(amount: string, currency: string) {
  const { t } = useTranslation();
  const settled = useDebounced({ amount: amount.trim(), currency }, 400, sameInput);
  return useQuery({
    queryKey: ['deposits', 'methods', settled.amount, settled.currency],
    enabled: settled.amount !== '',
    retry: false,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<PaymentMethod[]> => {
      const input = { amount: settled.amount, currency: settled.currency };
      try {
        await validateDepositAmount(input, signal);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) {
          throw new DepositCheckError(
            err instanceof ApiError ? (err.field('amount') ?? serverMessage(err, t('deposit.validation_failed'))) : t('deposit.validation_failed'),
            'amount',
          );
        }
      }
      try {
        return await fetchPaymentMethods(input, signal);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return [];
        throw new DepositCheckError(t('deposit.validation_failed'), 'general');
      }
    },
  });
}

/**
 * SPEC §2 Add Funds: amount with live validation, currency, payment methods, checkout. A redirect
 * method goes to the provider's page; a widget method shows the provider's form here.
 */
export function AddFundsForm() {
  const { t } = useTranslation();
  const ids = { amount: useId(), currency: useId() };
  const [params] = useSearchParams();
  const selected = useSelectedCurrency();
  const balance = useBalance();
  const currencyName = useInternalCurrencyName();
  const [amount, setAmount] = useState(params.get('amount') ?? '');
  const [currency, setCurrency] = useState((params.get('currency') ?? selected.code ?? 'EUR').toUpperCase());
  const [chosen, setChosen] = useState<string | null>(null);
  const [checkoutError, setCheckoutError] = useState<string | null>(null);
  const [widget, setWidget] = useState<DepositCheckoutResult['widget_data'] | null>(null);
  const checkout = useDepositCheckout();
  const methods = usePaymentMethods(amount, currency);
  const returnTo = safeReturnPath(params.get('return'));
  const currencies = selected.list.length ? selected.list : [{ code: 'EUR', symbol: '€' }];
  const money = useMoney();

  const checkError = methods.error instanceof DepositCheckError ? methods.error : null;
  const amountError = checkError?.where === 'amount' ? checkError.message : undefined;
  const list = methods.data ?? [];
  const method = list.find((m) => m.id === chosen) ?? list[0];
  const fromPurchase = params.get('return') && params.get('amount');

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!method || methods.isFetching) return;
    setCheckoutError(null);
    try {
      const result = await checkout.mutateAsync({
        input: { amount: amount.trim(), currency, payment_method: method.id },
        idempotencyKey: newIdempotencyKey(),
      });
      rememberReturn(returnTo);
      if (result.redirect_url) {
        leaveApp.to(result.redirect_url);
        return;
      }
      if (result.widget_data) setWidget(result.widget_data);
    } catch (err) {
      setCheckoutError(err instanceof ApiError ? serverMessage(err, t('deposit.checkout_failed')) : t('deposit.unexpected_error'));
    }
  }

  return (
    <section className="add-funds">
      <h1>{t('deposit.title')}</h1>
      <p className="muted">{t('deposit.intro', { name: currencyName })}</p>
      {balance.data && (
        <p className="deposit-balance">
          {t('balance.label', { name: currencyName })}:{' '}
          <Price amount={balance.data.amount} currency={{ code: balance.data.currency, symbol: balance.data.currencySymbol }} />
        </p>
      )}
      {fromPurchase && <p className="deposit-note">{t('deposit.for_purchase', { amount: money.format(Number(params.get('amount')), currency) })}</p>}
      {widget ? (
        <div className="form-card">
          <PaymentWidget data={widget} />
        </div>
      ) : (
        <form className="form-card" onSubmit={submit} noValidate>
          <div className="amount-row">
            <div className="field">
              <label htmlFor={ids.amount}>{t('deposit.amount')}</label>
              <input
                id={ids.amount}
                name="amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-invalid={amountError ? true : undefined}
                aria-describedby={amountError ? `${ids.amount}-error` : undefined}
              />
              <InlineError id={`${ids.amount}-error`} message={amountError} />
            </div>
            <div className="field">
              <label htmlFor={ids.currency}>{t('deposit.currency')}</label>
              <select id={ids.currency} name="currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
                {currencies.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.code} ({c.symbol})
                  </option>
                ))}
              </select>
            </div>
          </div>
          {methods.isFetching && <Spinner />}
          {!amount.trim() && <p className="muted small">{t('deposit.choose_amount')}</p>}
          {list.length > 0 && !amountError && (
            <fieldset className="method-list">
              <legend>{t('deposit.methods')}</legend>
              {list.map((m) => (
                <label key={m.id} className="method-option">
                  <input type="radio" name="payment_method" value={m.id} checked={method?.id === m.id} onChange={() => setChosen(m.id)} />
                  <span>{m.title}</span>
                </label>
              ))}
            </fieldset>
          )}
          <InlineError message={checkError?.where === 'general' && checkError.message} />
          <InlineError message={checkoutError} />
          <button className="button primary" type="submit" disabled={!method || Boolean(checkError) || methods.isFetching || checkout.isPending}>
            {checkout.isPending ? t('auth.processing') : t('deposit.pay')}
          </button>
        </form>
      )}
    </section>
  );
}
