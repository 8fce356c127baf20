import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import { type MoneyIn, useMoney } from '../../currency';

/**
 * An amount as the page shows it: formatted for the page's language (issue 18: "€12.50" in English,
 * "12,50 €" in German, "¥3,078"), with the site's symbol and the currency's decimals. The number
 * and the symbol are elements of their own (the symbol is styled; a test or a reader can find the
 * number); the text reads exactly as the formatted amount.
 */
export function Price({ amount, currency, className = '' }: { amount: number; currency: string | MoneyIn; className?: string }) {
  const money = useMoney();
  return (
    <span className={`price ${className}`} data-testid="price">
      {money.parts(amount, currency).map((part, i) =>
        part.type === 'currency' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one amount never reorder.
          <span key={i} className="price-symbol">
            {part.value}
          </span>
        ) : part.type === 'number' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one amount never reorder.
          <span key={i}>{part.value}</span>
        ) : (
          part.value
        ),
      )}
    </span>
  );
}

/**
 * A work's price as cards and pages show it (issue 34): during a sale, the struck list price, the
 * sale price and, with `ends`, when the sale ends; otherwise the price alone.
 */
export function ProductPrice({
  product,
  className = '',
  ends = false,
}: {
  product: { price: number; currency: string; currencySymbol: string; sale?: { price: number; ends_at: string | null } | null };
  className?: string;
  ends?: boolean;
}) {
  const { t } = useTranslation();
  const currency = { code: product.currency, symbol: product.currencySymbol };
  if (!product.sale) return <Price amount={product.price} currency={currency} className={className} />;
  return (
    <span className="sale-price" data-testid="sale-price">
      <del>
        <span className="visually-hidden">{t('sale.list_price')} </span>
        <Price amount={product.price} currency={currency} className="price-list" />
      </del>{' '}
      <Price amount={product.sale.price} currency={currency} className={className} />
      {ends && product.sale.ends_at && (
        <span className="sale-ends muted small" data-testid="sale-ends">
          {' '}
          {t('sale.ends', { date: formatDateTime(Math.floor(Date.parse(product.sale.ends_at) / 1000)) })}
        </span>
      )}
    </span>
  );
}
