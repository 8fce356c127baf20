import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { authKey, useAuth, useLogout, useNewAccountWelcome } from '../../features/auth';
import { BalanceCard } from '../../features/deposits';
import { DEFAULT_AVATAR } from '../../features/profile';
import { selectedCurrency } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-runtime';
import '../../features/profile/components/profile.css';

/** Dashboard header with its tabs (SPEC §2); each tab is a child route. */
/** The tabs about the balance show its card; the others (chat, security…) start with their own content (issue 18). */
const MONEY_TABS = new Set(['/dashboard', '/dashboard/orders', '/dashboard/statement', '/dashboard/deposits']);

export function Component() {
  const { t } = useTranslation();
  const user = useAuth().data?.user;
  const logout = useLogout();
  const queryClient = useQueryClient();
  const currency = useRef(selectedCurrency());
  const welcome = useNewAccountWelcome();
  const tabs = useRef<HTMLElement>(null);
  const { pathname } = useLocation();

  // The tabs scroll on one line (issue 18): the open one is brought into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger.
  useEffect(() => {
    const active = tabs.current?.querySelector<HTMLElement>('a.active');
    if (active && tabs.current) tabs.current.scrollLeft = active.offsetLeft - tabs.current.clientWidth / 2 + active.clientWidth / 2;
  }, [pathname]);

  // SPEC §2: profile data is reloaded when the currency changes.
  useEffect(() => {
    const onStorage = () => {
      if (selectedCurrency() !== currency.current) {
        currency.current = selectedCurrency();
        void queryClient.invalidateQueries({ queryKey: authKey });
        void queryClient.invalidateQueries({ queryKey: ['balance'] });
      }
    };
    window.addEventListener('storage', onStorage);
    window.addEventListener('currencychange', onStorage);
    return () => {
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('currencychange', onStorage);
    };
  }, [queryClient]);

  return (
    <div className="dashboard">
      <header className="dashboard-header">
        <div className="dashboard-who">
          <img className="avatar" src={user?.avatar_path ?? DEFAULT_AVATAR} alt="" width="64" height="64" />
          <div>
            <h1>{user ? `${user.name} ${user.surname}` : ''}</h1>
            {user && <p className="muted">@{user.nickname}</p>}
          </div>
        </div>
        <button type="button" className="button" onClick={() => logout.mutate()}>
          {t('dashboard.log_out')}
        </button>
        <nav className="tabs" ref={tabs} aria-label={t('nav.my_profile')}>
          <NavLink end to="/dashboard">
            {t('dashboard.my_projects')}
          </NavLink>
          <NavLink to="/dashboard/orders">{t('dashboard.order_history')}</NavLink>
          <NavLink to="/dashboard/favourites">{t('favourites.title')}</NavLink>
          <NavLink to="/dashboard/sales">{t('sales.title')}</NavLink>
          <NavLink to="/dashboard/statement">{t('dashboard.statement')}</NavLink>
          <NavLink to="/dashboard/earnings">{t('dashboard.earnings')}</NavLink>
          <NavLink to="/dashboard/refunds">{t('refunds.creator_title')}</NavLink>
          <NavLink to="/dashboard/reports">{t('reports.statements_title')}</NavLink>
          <NavLink to="/dashboard/seller-details">{t('sellers.title')}</NavLink>
          <NavLink to="/dashboard/contact">{t('dashboard.contact_information')}</NavLink>
          <NavLink to="/dashboard/chat">{t('dashboard.chat')}</NavLink>
          <NavLink to="/dashboard/security">{t('dashboard.security')}</NavLink>
        </nav>
      </header>
      {welcome && user && (
        <section className="panel welcome-panel" role="status" data-testid="welcome">
          <h2>{t('dashboard.welcome_title', { name: user.name })}</h2>
          <p>{t('dashboard.welcome_text')}</p>
          <div className="welcome-actions">
            <Link className="button primary" to="/products">
              {t('dashboard.welcome_shop')}
            </Link>
            <Link className="button" to="/dashboard/contact">
              {t('dashboard.welcome_profile')}
            </Link>
            {user.phone && !user.is_phone_verified && (
              <Link className="button" to="/verification">
                {t('profile.phone_verify_link')}
              </Link>
            )}
          </div>
        </section>
      )}
      {MONEY_TABS.has(pathname.replace(/\/+$/, '')) && <BalanceCard />}
      <Outlet />
    </div>
  );
}
