import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { useBalance, useInternalCurrencyName } from '../api/balance';

/**
 * The signed-in user's balance in the header, labelled with the internal currency's name; opens Add
 * Funds. Its accessible name is its visible text (issue 31, axe label-content-name-mismatch): on a
 * phone the name is only visually hidden, so it is still read.
 */
export function HeaderBalance() {
  const { t } = useTranslation();
  const balance = useBalance();
  const name = useInternalCurrencyName();
  const money = useMoney();
  if (!balance.data) return null;
  const amount = money.format(balance.data.amount, { code: balance.data.currency, symbol: balance.data.currencySymbol });
  return (
    <Link to="/deposit/create" className="header-balance" title={t('balance.label', { name })} data-testid="header-balance">
      <span className="header-balance-name">{name}</span> <span>{amount}</span>
    </Link>
  );
}
