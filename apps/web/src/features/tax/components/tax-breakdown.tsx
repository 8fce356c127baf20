import { vatInside } from '@atelier/shared';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import type { MoneyIn } from '../../currency';
import { useBuyerTax } from '../api/tax';

type Props = { price: number; currency: MoneyIn; decimals?: number };

/**
 * The net, the VAT rate and amount, and the total of a price before the purchase (issue 33), as the
 * server will carve it (the same `vatInside`): under reverse charge the total is the net and no VAT is
 * charged. The server's figures on the order are the ones that count.
 */
export function TaxBreakdown({ price, currency, decimals = 2 }: Props) {
  const { t } = useTranslation();
  const tax = useBuyerTax();
  if (!tax.data) return null;
  if (tax.data.choices)
    return (
      <p className="muted small" role="status" data-testid="tax-choose">
        {t('tax.choose_country', { countries: tax.data.choices.join(', ') })}
      </p>
    );
  const scale = 10 ** decimals;
  const gross = Math.round(price * scale);
  const reverse = tax.data.reverse_charge;
  const vat = reverse ? 0 : vatInside(gross, Math.round(tax.data.rate * 100));
  const net = reverse ? gross - vatInside(gross, Math.round(tax.data.list_rate * 100)) : gross - vat;
  const total = net + vat;
  return (
    <>
      <div className="row" data-testid="tax-net">
        <dt>{t('tax.net')}</dt>
        <dd>
          <Price amount={net / scale} currency={currency} />
        </dd>
      </div>
      <div className="row" data-testid="tax-vat">
        <dt>{reverse ? t('tax.reverse_charge') : t('tax.vat_rate', { rate: String(tax.data.rate) })}</dt>
        <dd>
          <Price amount={vat / scale} currency={currency} />
        </dd>
      </div>
      <div className="row" data-testid="tax-total">
        <dt>{t('tax.total')}</dt>
        <dd>
          <Price amount={total / scale} currency={currency} />
        </dd>
      </div>
    </>
  );
}
