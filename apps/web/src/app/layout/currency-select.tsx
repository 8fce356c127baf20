import { useId } from 'react';
import { useSelectedCurrency } from '../../features/currency';
import { useTranslation } from '../../lib/i18n-runtime';
import { useIsClient } from '../../lib/ssr-env';

/** SPEC §2/§9 currency dropdown: only rendered when the server offers more than one currency. */
export function CurrencySelect({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const id = useId();
  const currency = useSelectedCurrency();
  // On a server-rendered page a choice made before the app takes over would be lost: wait for it.
  const interactive = useIsClient();
  if (currency.list.length <= 1 || !currency.current) return null;
  return (
    <div className={`currency-select ${className}`}>
      <label htmlFor={id} className="visually-hidden">
        {t('nav.currency')}
      </label>
      <select id={id} value={currency.current.code} disabled={!interactive} onChange={(e) => currency.select(e.target.value)} data-testid="currency-select">
        {currency.list.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name || c.code} {c.symbol}
          </option>
        ))}
      </select>
    </div>
  );
}
