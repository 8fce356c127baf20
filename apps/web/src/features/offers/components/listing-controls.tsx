import type { Offer } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Field, FormError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { offerErrorMessage, useChangeListingPrice, useToggleListing } from '../api/offers';

/** A new price more than this far from the approved one goes back to review (the server decides; this only warns). */
const REVIEW_SHARE = 0.5;

/**
 * Issue 19: an approved listing managed from My projects: its state in the shop, a new price (within
 * 50% of the approved price it is live at once; beyond, the work is hidden until staff review it),
 * and Unlist / List again.
 */
export function ListingControls({ offer }: { offer: Offer }) {
  const { t } = useTranslation();
  const money = useMoney();
  const toast = useToast();
  const change = useChangeListingPrice();
  const toggle = useToggleListing();
  const [price, setPrice] = useState(offer.user_price.toFixed(2));
  const [priceError, setPriceError] = useState<string | undefined>();
  // Issue 34: the other licences' prices; empty: the licence is not offered.
  const [personal, setPersonal] = useState(offer.personal_price != null ? offer.personal_price.toFixed(2) : '');
  const [extended, setExtended] = useState(offer.extended_price != null ? offer.extended_price.toFixed(2) : '');
  const [tierErrors, setTierErrors] = useState<{ personal_price?: string; extended_price?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const listed = offer.status === 'approved';
  const approved = offer.service_price ?? offer.user_price;
  const busy = change.isPending || toggle.isPending;
  const wanted = Number(price.replace(',', '.'));
  const needsReview = Number.isFinite(wanted) && wanted > 0 && Math.abs(wanted - approved) > approved * REVIEW_SHARE;

  async function save(e: FormEvent) {
    e.preventDefault();
    setPriceError(undefined);
    setTierErrors({});
    setError(null);
    if (!/^\d+([.,]\d{1,2})?$/.test(price.trim()) || wanted <= 0) return setPriceError(t('offers.price_invalid'));
    const tierPrice = (text: string) => (text.trim() === '' ? null : Number(text.trim().replace(',', '.')));
    const tiers = { personal_price: tierPrice(personal), extended_price: tierPrice(extended) };
    const bad = Object.entries(tiers).filter(([, v]) => v !== null && !(Number.isFinite(v) && v > 0));
    if (bad.length) return setTierErrors(Object.fromEntries(bad.map(([k]) => [k, t('offers.price_invalid')])));
    try {
      const answer = await change.mutateAsync({ id: offer.id, price: wanted, ...tiers });
      if (answer.message) toast.success(answer.message);
    } catch (err) {
      const fields = err instanceof ApiError ? { personal_price: err.field('personal_price'), extended_price: err.field('extended_price') } : {};
      if (err instanceof ApiError && err.field('price')) setPriceError(err.field('price'));
      else if (fields.personal_price || fields.extended_price) setTierErrors(fields);
      else setError(offerErrorMessage(err, t('offers.listing_error')));
    }
  }

  async function flip() {
    setError(null);
    try {
      const answer = await toggle.mutateAsync({ id: offer.id, to: listed ? 'unlist' : 'relist' });
      if (answer.message) toast.success(answer.message);
    } catch (err) {
      setError(offerErrorMessage(err, t('offers.listing_error')));
    }
  }

  return (
    <div className="listing-controls" data-testid="listing-controls">
      <p className={listed ? 'offer-callout ok' : 'offer-callout neutral'}>{listed ? t('offers.listing_live') : t('offers.listing_unlisted')}</p>
      <form className="listing-price" onSubmit={save} noValidate aria-busy={busy}>
        <Field
          label={t('offers.listing_price', { symbol: '€' })}
          inputMode="decimal"
          autoComplete="off"
          value={price}
          onChange={(e) => {
            setPrice(e.target.value);
            setPriceError(undefined);
          }}
          error={priceError}
          disabled={busy}
        />
        <TierPriceField tier="personal" value={personal} onChange={setPersonal} error={tierErrors.personal_price} disabled={busy} />
        <TierPriceField tier="extended" value={extended} onChange={setExtended} error={tierErrors.extended_price} disabled={busy} />
        <button type="submit" className="button" disabled={busy}>
          {change.isPending ? t('auth.processing') : t('offers.listing_save')}
        </button>
      </form>
      {needsReview && (
        <p className="small offer-callout warn" role="note">
          {t('offers.listing_review_warning', { amount: money.format(approved, offer.currency) })}
        </p>
      )}
      <FormError message={error} />
      <div className="modal-actions">
        <button type="button" className={listed ? 'button' : 'button primary'} onClick={flip} disabled={busy}>
          {toggle.isPending ? t('auth.processing') : listed ? t('offers.unlist') : t('offers.relist')}
        </button>
      </div>
    </div>
  );
}

/** Issue 34: the price of the personal or extended licence; left empty, that licence is not offered. */
function TierPriceField({
  tier,
  value,
  onChange,
  error,
  disabled,
}: {
  tier: 'personal' | 'extended';
  value: string;
  onChange: (value: string) => void;
  error?: string;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Field
      label={t(`licences.${tier}_price`, { symbol: '€' })}
      hint={t('licences.price_hint')}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      disabled={disabled}
    />
  );
}
