import type { FileInfo, ProductDetails } from '@atelier/shared';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from './price';

/** "2.4 MB", "830 KB": decimal units, one decimal from a megabyte, in the page's language. */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit >= 2 && value < 100 ? 1 : 0;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}

/** "n sold" under the title (issue 31 item 7); nothing before the first sale. */
export function SalesCount({ count }: { count: number }) {
  const { t } = useTranslation();
  if (count < 1) return null;
  return (
    <p className="sales-count muted small" data-testid="sales-count">
      {t('products.sold', { count })}
    </p>
  );
}

/** What the buyer gets: the format and size; pixels of an image, pages or words of a text, the model of a prompt. */
export function FileDetails({ file }: { file: FileInfo | null }) {
  const { t, i18n } = useTranslation();
  if (!file) return null;
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n);
  const rows: [string, string][] = [[t('products.file_format'), file.format]];
  if (file.width && file.height) rows.push([t('products.file_pixels'), t('products.pixels', { width: number(file.width), height: number(file.height) })]);
  if (file.pages) rows.push([t('products.file_pages'), number(file.pages)]);
  if (file.words) rows.push([t('products.file_words'), number(file.words)]);
  if (file.model) rows.push([t('products.file_model'), file.model]);
  rows.push([t('products.file_size'), formatBytes(file.bytes, i18n.language)]);
  return (
    <div className="file-details-block">
      <h2 className="small-heading">{t('products.file_heading')}</h2>
      <dl className="file-details" data-testid="file-details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** A pack's saving against buying its works one by one, in the display currency; nothing when it saves nothing. */
export function PackSaving({ product }: { product: ProductDetails }) {
  const { t } = useTranslation();
  const items = product.items ?? [];
  // The server's saving (issue 34: computed from cents, the percent never overstated) when it sends one;
  // else from the shown prices, rounded to 2 decimals in the display currency: added in cents to avoid 0.1 + 0.2.
  const fromServer = product.saving;
  const alone = fromServer ? Math.round(fromServer.items_price * 100) : items.reduce((sum, i) => sum + Math.round(i.price * 100), 0);
  const saving = fromServer ? fromServer.amount : (alone - Math.round(product.price * 100)) / 100;
  if (items.length < 2 || saving <= 0 || fromServer === null) return null;
  const currency = { code: product.currency, symbol: product.currencySymbol };
  const percent = fromServer ? fromServer.percent : Math.round((saving / (alone / 100)) * 100);
  return (
    <p className="pack-saving" data-testid="pack-saving">
      <strong>
        {t('products.pack_save')} <Price amount={saving} currency={currency} /> ({percent} %)
      </strong>{' '}
      <span className="muted small">
        {t('products.pack_alone', { count: items.length })} <Price amount={alone / 100} currency={currency} />
      </span>
    </p>
  );
}
