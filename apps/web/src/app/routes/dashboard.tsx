import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { useAuth } from '../../features/auth/api/auth-state';

/** Dashboard header with its tabs (SPEC §2); each tab is a child route. */
export function Component() {
  const { t } = useTranslation();
  const user = useAuth().data?.user;
  return (
    <div className="dashboard">
      <header className="dashboard-header">
        <div>
          <h1>{user ? `${user.name} ${user.surname}` : ''}</h1>
          {user && <p className="muted">@{user.nickname}</p>}
        </div>
        <nav className="tabs" aria-label="Dashboard">
          <NavLink end to="/dashboard">
            {t('dashboard.my_projects')}
          </NavLink>
          <NavLink to="/dashboard/orders">{t('dashboard.order_history')}</NavLink>
          <NavLink to="/dashboard/contact">{t('dashboard.contact_information')}</NavLink>
          <NavLink to="/dashboard/chat">{t('dashboard.chat')}</NavLink>
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
