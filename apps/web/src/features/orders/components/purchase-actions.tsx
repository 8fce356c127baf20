import type { Product } from '@atelier/shared';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { OwnedVersions } from '../../versions';
import { useOwnership } from '../api/ownership';
import { DownloadButton } from './download-button';
import './orders.css';

// Opened by a click only: its code (and the balance and deposit code it needs) is not on the page's first load.
const BuyDialog = lazy(() => import('./buy-dialog').then((m) => ({ default: m.BuyDialog })));

type Props = { product: Product /** More actions for a buyer who does not own it yet (Add to cart). */; children?: ReactNode };

/** The product page's buy box: Buy now (and the extra actions), or 'You own this' with the downloads. */
export function PurchaseActions({ product, children }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const auth = useAuth();
  const user = auth.data?.user;
  const signedIn = Boolean(auth.data?.authenticated);
  const ownProduct = Boolean(user && user.nickname === product.authorNickname);
  const ownership = useOwnership(product.id, signedIn && !ownProduct);
  const [open, setOpen] = useState(false);

  if (!signedIn) {
    const login = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`;
    return (
      <div className="buy-actions">
        <Link className="button primary" to={login}>
          {t('buy.buy_now')}
        </Link>
        <Link className="button" to={login}>
          {t('cart.add')}
        </Link>
      </div>
    );
  }

  if (ownProduct) return <p className="muted">{t('buy.own_product')}</p>;

  if (ownership.data?.owned) {
    const downloads = ownership.data.downloads;
    return (
      <div className="purchase-owned" data-testid="owned">
        <strong>{t('buy.owned')}</strong>
        <p className="muted small">{t('buy.owned_text')}</p>
        <ul className="download-list">
          {/* Issue 31 item 7: a pack's files as one ZIP. */}
          {ownership.data.download_all_url && (
            <li>
              <DownloadButton url={ownership.data.download_all_url} title={product.title} className="button primary" label={t('buy.download_all')} />
            </li>
          )}
          {downloads.map((d) => (
            <li key={d.product_id}>
              <DownloadButton
                url={d.url}
                title={d.title}
                className="button primary"
                label={downloads.length > 1 ? t('buy.download_item', { title: d.title }) : t('buy.download')}
              />
            </li>
          ))}
        </ul>
        {/* Issue 34: the work's versions with their notes, loaded when opened. */}
        {product.product_type !== 'pack' && <OwnedVersions productId={product.id} />}
        <Link className="link-button" to="/dashboard/orders">
          {t('dashboard.order_history')}
        </Link>
      </div>
    );
  }

  return (
    <div className="buy-actions">
      <button type="button" className="button primary" onClick={() => setOpen(true)} disabled={ownership.isPending}>
        {t('buy.buy_now')}
      </button>
      {children}
      {open && (
        <Suspense fallback={null}>
          <BuyDialog product={product} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
