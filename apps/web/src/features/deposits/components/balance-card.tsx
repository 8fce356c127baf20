import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useBalance, useInternalCurrencyName } from '../api/balance';
import './deposits.css';

/** The balance labelled with the internal currency's name, with Add funds and the deposit history. */
export function BalanceCard() {
  const { t } = useTranslation();
  const balance = useBalance();
  const name = useInternalCurrencyName();
  return (
    <section className="balance-card" aria-label={t('balance.label', { name })}>
      <span className="balance-label">{t('balance.label', { name })}</span>
      <span data-testid="balance">
        {balance.data ? (
          <Price amount={balance.data.amount} currency={{ code: balance.data.currency, symbol: balance.data.currencySymbol }} />
        ) : balance.isError ? (
          '—'
        ) : (
          '…'
        )}
      </span>
      <span className="balance-links">
        <Link className="link-button" to="/dashboard/deposits">
          {t('dashboard.deposits')}
        </Link>
        <Link className="button primary" to="/deposit/create">
          {t('balance.add_funds')}
        </Link>
      </span>
    </section>
  );
}
