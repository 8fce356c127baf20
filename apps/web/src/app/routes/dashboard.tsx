import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { authKey, useAuth, useLogout, useNewAccountWelcome } from '../../features/auth';
import { BalanceCard } from '../../features/deposits';
import { DEFAULT_AVATAR } from '../../features/profile';
import { selectedCurrency } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n-runtime';
import { useIsCreator } from '../use-is-creator';
import '../../features/profile/components/profile.css';

/**
 * Dashboard header with its tabs (SPEC §2); each tab is a child route. Issue 31: the tabs are two
 * groups, the buyer's Library and, once someone has offered a work, the creator's Dashboard.
 */
/** The tabs about the balance show its card; the others (chat, security…) start with their own content (issue 18). */
const MONEY_TABS = new Set(['/dashboard', '/dashboard/projects', '/dashboard/orders', '/dashboard/statement', '/dashboard/deposits']);

export function Component() {
  const { t } = useTranslation();
  const user = useAuth().data?.user;
  const logout = useLogout();
  const queryClient = useQueryClient();
  const currency = useRef(selectedCurrency());
  const welcome = useNewAccountWelcome();
  const tabs = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const creator = useIsCreator();
  const home = /\/dashboard\/?$/.test(pathname);
  // Issue 31: a strip wider than the screen fades out on the side where more tabs wait.
  const [more, setMore] = useState('');
  const measure = useCallback(() => {
    const el = tabs.current;
    if (!el) return;
    const left = el.scrollLeft > 2;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 2;
    setMore(left && right ? 'both' : left ? 'left' : right ? 'right' : '');
  }, []);
  useEffect(() => {
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [measure]);

  // The tabs scroll on one line (issue 18): the open one is brought into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger.
  useEffect(() => {
    const active = tabs.current?.querySelector<HTMLElement>('a.active');
    if (active && tabs.current) tabs.current.scrollLeft = active.offsetLeft - tabs.current.clientWidth / 2 + active.clientWidth / 2;
    measure();
  }, [pathname, creator]);

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
        <div className="tabs-scroller" data-more={more || undefined}>
          <div className="tabs" ref={tabs} onScroll={measure}>
            <nav className="tab-group" aria-label={t('dashboard.library')}>
              <span className="tab-group-label" aria-hidden="true">
                {t('dashboard.library')}
              </span>
              <NavLink to="/dashboard/orders" className={({ isActive }) => (isActive || (home && creator === false) ? 'active' : '')}>
                {t('dashboard.order_history')}
              </NavLink>
              <NavLink to="/dashboard/favourites">{t('favourites.title')}</NavLink>
              <NavLink to="/dashboard/statement">{t('dashboard.statement')}</NavLink>
              <NavLink to="/dashboard/chat">{t('dashboard.chat')}</NavLink>
              <NavLink to="/dashboard/contact">{t('dashboard.contact_information')}</NavLink>
              <NavLink to="/dashboard/security">{t('dashboard.security')}</NavLink>
              <NavLink to="/dashboard/reports">{t('reports.statements_title')}</NavLink>
              {creator === false && <NavLink to="/dashboard/projects">{t('dashboard.start_selling')}</NavLink>}
            </nav>
            {creator && (
              <nav className="tab-group" aria-label={t('dashboard.creator')}>
                <span className="tab-group-label" aria-hidden="true">
                  {t('dashboard.creator')}
                </span>
                <NavLink to="/dashboard" className={({ isActive }) => (isActive || pathname.endsWith('/dashboard/projects') ? 'active' : '')} end>
                  {t('dashboard.my_projects')}
                </NavLink>
                <NavLink to="/dashboard/sales">{t('sales.title')}</NavLink>
                <NavLink to="/dashboard/discounts">{t('discounts.title')}</NavLink>
                <NavLink to="/dashboard/bundles">{t('bundles.title')}</NavLink>
                <NavLink to="/dashboard/storefront">{t('storefront.title')}</NavLink>
                <NavLink to="/dashboard/earnings">{t('dashboard.earnings')}</NavLink>
                <NavLink to="/dashboard/refunds">{t('refunds.creator_title')}</NavLink>
                <NavLink to="/dashboard/seller-details">{t('sellers.title')}</NavLink>
              </nav>
            )}
          </div>
        </div>
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
