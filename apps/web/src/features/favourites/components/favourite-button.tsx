import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useFavouriteIds, useToggleFavourite } from '../api/favourites';
import './favourites.css';

/** The address's parameter that carries a guest's heart through sign-in: `?favourite={productId}`. */
export const PENDING_FAVOURITE = 'favourite';

/**
 * The heart on a card or a product page. A guest is sent to sign in with a return address that names
 * the product; back here, signed in, the heart sets itself and the parameter leaves the address.
 */
export function FavouriteButton({ productId, title, large = false }: { productId: number; title: string; large?: boolean }) {
  const { t } = useTranslation();
  const { signedIn, ids } = useFavouriteIds();
  const toggle = useToggleFavourite();
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const on = ids.includes(productId);
  const pending = search.get(PENDING_FAVOURITE) === String(productId);

  useEffect(() => {
    if (!signedIn || !pending) return;
    toggle.mutate({ productId, favourite: true });
    setSearch(
      (s) => {
        s.delete(PENDING_FAVOURITE);
        return s;
      },
      { replace: true },
    );
  }, [signedIn, pending, productId, setSearch, toggle.mutate]);

  const onClick = () => {
    if (!signedIn) {
      const back = new URLSearchParams(location.search);
      back.set(PENDING_FAVOURITE, String(productId));
      navigate(`/login?redirect=${encodeURIComponent(`${location.pathname}?${back}`)}`);
      return;
    }
    toggle.mutate({ productId, favourite: !on });
  };

  const label = `${on ? t('favourites.remove') : t('favourites.add')}: ${title}`;
  return (
    <button
      type="button"
      className={`heart${on ? ' on' : ''}${large ? ' large' : ''}`}
      aria-pressed={on}
      aria-label={label}
      title={label}
      onClick={onClick}
      data-testid="favourite"
    >
      <svg viewBox="0 0 24 24" width={large ? 24 : 20} height={large ? 24 : 20} aria-hidden="true">
        <path
          d="M12 21s-7.5-4.6-9.6-9.2C1 8.6 3 5 6.5 5c2 0 3.5 1.1 4.5 2.6C12 6.1 13.5 5 15.5 5 19 5 21 8.6 19.6 11.8 17.5 16.4 12 21 12 21z"
          fill={on ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
        />
      </svg>
    </button>
  );
}
