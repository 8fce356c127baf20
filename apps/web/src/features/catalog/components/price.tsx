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
