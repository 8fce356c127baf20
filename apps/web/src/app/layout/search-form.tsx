import { type FormEvent, useState } from 'react';
import { useHref, useNavigate } from 'react-router';
import { SearchIcon } from '../../components/ui/icons';
import { useTranslation } from '../../lib/i18n-runtime';

/** SPEC §2/§5 search: the text is trimmed, empty does nothing, and the box is cleared after a search. */
export function SearchForm({ className = '', onSearched }: { className?: string; onSearched?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const action = useHref('/products');
  const [text, setText] = useState('');
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const search = text.trim();
    if (!search) return;
    setText('');
    navigate(`/products?search=${encodeURIComponent(search)}`);
    onSearched?.();
  }
  return (
    // action/name: before the app has taken over a server-rendered page, the form still searches.
    <form className={`search-form ${className}`} role="search" aria-label={t('nav.search_site')} action={action} method="get" onSubmit={onSubmit}>
      <SearchIcon size={18} />
      <input
        type="search"
        name="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('nav.search_placeholder')}
        aria-label={t('nav.search')}
      />
    </form>
  );
}
