import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../../features/auth/api/auth-state';

export function Header() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const auth = useAuth();
  const [search, setSearch] = useState('');

  function onSearch(e: FormEvent) {
    e.preventDefault();
    const text = search.trim();
    if (!text) return;
    navigate(`/products?search=${encodeURIComponent(text)}`);
  }

  return (
    <header className="header">
      <Link to="/" className="logo" aria-label={t('nav.home')}>
        <img src="/favicon.svg" alt="" width="32" height="32" />
        <span>Atelier</span>
      </Link>
      <form className="header-search" role="search" onSubmit={onSearch}>
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('nav.search_placeholder')}
          aria-label={t('nav.search')}
        />
      </form>
      <nav className="header-nav" aria-label="Main">
        <Link to="/products">{t('nav.buy')}</Link>
        <Link to="/dashboard">{t('nav.sell')}</Link>
        {auth.data?.authenticated && (
          <Link to="/cart" aria-label={t('nav.cart')}>
            {t('nav.cart')}
          </Link>
        )}
      </nav>
    </header>
  );
}
