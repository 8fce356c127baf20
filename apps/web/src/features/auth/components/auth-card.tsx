import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n-runtime';
import './auth.css';

/** The frame of every auth screen: logo, title, content (header and footer are hidden there). */
export function AuthCard({ title, children, wide }: { title: string; children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="auth-screen">
      <div className={wide ? 'auth-card wide' : 'auth-card'}>
        <Link to="/" className="auth-logo" aria-label={`Atelier, ${t('nav.home')}`}>
          <img src="/favicon.svg" alt="" width="40" height="40" />
          <span>Atelier</span>
        </Link>
        <h1>{title}</h1>
        {children}
      </div>
    </div>
  );
}
