import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CartIcon, LogoMark, MenuIcon } from '../../components/ui/icons';
import { useAuth } from '../../features/auth';
import { useCartCount } from '../../features/cart';
import { HeaderBalance } from '../../features/deposits';
import { useTranslation } from '../../lib/i18n-runtime';
import { CurrencySelect } from './currency-select';
import { LanguageSelect } from './language-select';
import { NotificationsButton } from './notifications';
import { SearchForm } from './search-form';

// The menu panel renders only while open: its code loads on the first click (or when the pointer comes near the button).
const loadSidebar = () => import('./sidebar');
const Sidebar = lazy(() => loadSidebar().then((m) => ({ default: m.Sidebar })));

/** SPEC §2 header; on the public profile route it becomes a rounded translucent bar. */
export function Header() {
  const { t } = useTranslation();
  const auth = useAuth();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const signedIn = Boolean(auth.data?.authenticated);
  const cartCount = useCartCount(signedIn);
  const floating = location.pathname.startsWith('/profile/');

  return (
    <header className={`header${floating ? ' header-floating' : ''}`}>
      <div className="header-inner">
        <Link to="/" className="logo" aria-label={`Atelier, ${t('nav.home')}`}>
          <LogoMark />
          <span>Atelier</span>
        </Link>
        <SearchForm className="header-search" />
        <nav className="header-nav" aria-label={t('nav.main')}>
          <Link to="/products">{t('nav.buy')}</Link>
          <Link to="/dashboard">{t('nav.sell')}</Link>
        </nav>
        <div className="header-actions">
          <LanguageSelect className="header-currency" />
          <CurrencySelect className="header-currency" />
          {signedIn && <HeaderBalance />}
          <NotificationsButton />
          {signedIn && (
            <Link to="/cart" className="icon-button cart-button" aria-label={cartCount ? t('nav.cart_count', { count: cartCount }) : t('nav.cart')}>
              <CartIcon />
              {cartCount ? <span className="badge">{cartCount > 99 ? '99+' : cartCount}</span> : null}
            </Link>
          )}
          <button
            type="button"
            className="icon-button"
            aria-label={t('nav.open_menu')}
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
            onPointerEnter={() => void loadSidebar()}
            onFocus={() => void loadSidebar()}
            data-testid="menu-button"
          >
            <MenuIcon />
          </button>
        </div>
      </div>
      {menuOpen && (
        <Suspense fallback={null}>
          <Sidebar open onClose={closeMenu} />
        </Suspense>
      )}
    </header>
  );
}
