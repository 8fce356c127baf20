/** SPEC §9 price display: 2 decimals, then the currency symbol after a 4 px gap. */
export function Price({ amount, symbol, className = '', decimals = 2 }: { amount: number; symbol: string; className?: string; decimals?: number }) {
  return (
    <span className={`price ${className}`} data-testid="price">
      <span>{amount.toFixed(decimals)}</span>
      <span className="price-symbol">{symbol}</span>
    </span>
  );
}
