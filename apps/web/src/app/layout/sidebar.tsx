import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, useLocation } from 'react-router';
import { BellIcon, CloseIcon } from '../../components/ui/icons';
import { useAuth, useLogout } from '../../features/auth';
import { useTranslation } from '../../lib/i18n-runtime';
import { CurrencySelect } from './currency-select';
import { LanguageSelect } from './language-select';
import { SidebarNotifications } from './notifications';
import { SearchForm } from './search-form';

/** SPEC §2 sidebar menu: closes on Esc, on a backdrop click and on any route change. */
export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const logout = useLogout();
  const location = useLocation();
  const closeButton = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const [notifications, setNotifications] = useState(false);
  const titleId = useId();
  const notesId = useId();
  // Signing in from a page comes back to it; from home it goes to the dashboard as usual.
  const comeBack = location.pathname === '/' ? '' : `?redirect=${encodeURIComponent(location.pathname + location.search)}`;

  // Any route change closes the menu (not the first render).
  const routeKey = useRef(location.key);
  useEffect(() => {
    if (routeKey.current === location.key) return;
    routeKey.current = location.key;
    onClose();
  }, [location.key, onClose]);

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      // Keep Tab inside the open panel (it is modal).
      if (e.key === 'Tab' && panel.current) {
        const items = panel.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input, select, [tabindex]:not([tabindex="-1"])');
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last?.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first?.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('no-scroll');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('no-scroll');
      opener?.focus();
    };
  }, [open, onClose]);

  if (!open) return null;
  const user = auth.data?.authenticated ? auth.data.user : null;

  // A portal: a translucent (backdrop-filtered) header would otherwise trap the fixed panel inside it.
  return createPortal(
    <div className="sidebar-root">
      <div className="sidebar-backdrop" data-testid="sidebar-backdrop" onClick={onClose} aria-hidden="true" />
      <div ref={panel} className="sidebar" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="sidebar">
        <div className="sidebar-head">
          <h2 id={titleId}>{t('nav.menu')}</h2>
          <button ref={closeButton} type="button" className="icon-button" onClick={onClose} aria-label={t('nav.close_menu')}>
            <CloseIcon />
          </button>
        </div>
        <SearchForm className="sidebar-search" onSearched={onClose} />
        <nav aria-label={t('nav.menu')}>
          <ul className="sidebar-links">
            <li>
              <Link to="/dashboard">{t('nav.my_profile')}</Link>
            </li>
            <li>
              <Link to="/cart">{t('nav.cart')}</Link>
            </li>
            <li>
              <Link to="/products">{t('nav.category')}</Link>
            </li>
            <li>
              <Link to="/products">{t('nav.buy')}</Link>
            </li>
            <li>
              <Link to="/dashboard">{t('nav.sell')}</Link>
            </li>
            {user?.role === 'admin' && (
              <li>
                <Link to="/admin">{t('admin.title')}</Link>
              </li>
            )}
          </ul>
        </nav>
        {/* On a phone the header's switchers are hidden: the menu has both (issue 18). */}
        <div className="sidebar-row">
          <span aria-hidden="true">{t('nav.language')}</span>
          <LanguageSelect />
        </div>
        <div className="sidebar-row">
          <span>{t('nav.currency')}</span>
          <CurrencySelect />
        </div>
        <div className="sidebar-row">
          <button
            type="button"
            className="link-button sidebar-toggle"
            aria-expanded={notifications}
            aria-controls={notesId}
            onClick={() => setNotifications((n) => !n)}
          >
            <BellIcon size={18} /> {t('nav.notifications')}
          </button>
        </div>
        <div id={notesId} className="sidebar-notes" hidden={!notifications} data-testid="sidebar-notifications">
          <SidebarNotifications open={notifications} />
        </div>
        <div className="sidebar-account">
          {user ? (
            <>
              <p>
                {t('nav.welcome')} <strong>{user.email}</strong>
              </p>
              <button type="button" className="button" onClick={() => logout.mutate()}>
                {t('nav.log_out')}
              </button>
            </>
          ) : (
            <div className="sidebar-auth">
              <Link className="button" to={`/login${comeBack}`}>
                {t('nav.log_in')}
              </Link>
              <Link className="button primary" to={`/register${comeBack}`}>
                {t('nav.sign_up')}
              </Link>
            </div>
          )}
        </div>
      </div>
    </div>,
    document.body,
  );
}
