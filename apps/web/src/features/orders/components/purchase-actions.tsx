import type { Product } from '@atelier/shared';
import { isHigherTier, type LicenceTier, type ProductLicence } from '@atelier/shared/licences';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useMoney } from '../../currency';
import { OwnedVersions } from '../../versions';
import { useOwnership, useUpgradeLicence } from '../api/ownership';
import { DownloadButton } from './download-button';
import './orders.css';

// Opened by a click only: its code (and the balance and deposit code it needs) is not on the page's first load.
const BuyDialog = lazy(() => import('./buy-dialog').then((m) => ({ default: m.BuyDialog })));

type Props = {
  /** The product page's product; its `licences` (product details) let the owner upgrade (issue 34). */
  product: Product & { licences?: ProductLicence[] };
  /** More actions for a buyer who does not own it yet (Add to cart). */
  children?: ReactNode;
};

/**
 * Issue 34: the licence the owner holds, the file with its LICENCE.txt as a ZIP, and an upgrade to
 * each wider licence offered for the difference in price.
 */
function OwnedLicence({ product, owned, downloadUrl }: { product: Props['product']; owned: LicenceTier; downloadUrl?: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const money = useMoney();
  const upgrade = useUpgradeLicence(product.id);
  const licences = product.licences ?? [];
  const ownedPrice = licences.find((l) => l.tier === owned)?.price;
  const wider = ownedPrice === undefined ? [] : licences.filter((l) => isHigherTier(l.tier, owned) && l.price > ownedPrice);
  const priced = { code: product.currency, symbol: product.currencySymbol };
  async function upgradeTo(tier: LicenceTier) {
    try {
      await upgrade.mutateAsync(tier);
      toast.success(t('licences.upgraded', { tier: t(`licences.${tier}`) }));
    } catch (err) {
      toast.error(serverMessageOr(err, t('licences.upgrade_failed')));
    }
  }
  return (
    <div className="owned-licence" data-testid="owned-licence">
      <p>
        <a href={`/licences/${owned}`} target="_blank" rel="noopener">
          {t('licences.owned', { tier: t(`licences.${owned}`) })}
        </a>
      </p>
      {downloadUrl && <DownloadButton url={`${downloadUrl}&format=zip`} title={product.title} className="button" label={t('licences.download_zip')} />}
      {wider.map((l) => (
        <button key={l.tier} type="button" className="button" disabled={upgrade.isPending} onClick={() => void upgradeTo(l.tier)}>
          {t('licences.upgrade', { tier: t(`licences.${l.tier}`), amount: money.format(Math.round((l.price - ownedPrice!) * 100) / 100, priced) })}
        </button>
      ))}
    </div>
  );
}

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
        {ownership.data.licence_tier && !ownership.data.download_all_url && (
          <OwnedLicence product={product} owned={ownership.data.licence_tier} downloadUrl={downloads.length === 1 ? downloads[0]!.url : undefined} />
        )}
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
