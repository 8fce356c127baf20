import type { AdminCurrency, AdminStaticPage, SocialLink } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { AdminBlock } from '../../../components/ui/admin-section';
import { InlineError } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useTranslation } from '../../../lib/i18n-runtime';
import {
  previewStaticPage,
  useAdminCurrencies,
  useAdminSocialLinks,
  useAdminStaticPages,
  useSaveCurrency,
  useSaveSocialLink,
  useSaveStaticPage,
} from '../api/admin-api';
import { ActionError, actionErrorText } from './action-error';
import { AdminList } from './admin-table';

/** Static pages edited as rich text (HTML); the preview is the server's sanitised copy, exactly what would be stored. */
export function StaticPagesEditor() {
  const { t } = useTranslation();
  const pages = useAdminStaticPages();
  const [selected, setSelected] = useState<number | null>(null);
  if (pages.isPending) return <Spinner />;
  if (pages.isError) return <p className="error-text">{pages.error.message}</p>;
  const page = pages.data.find((p) => p.id === selected) ?? pages.data[0];
  return (
    <AdminBlock title={t('admin.static_pages')}>
      <label className="field-inline">
        {t('admin.page')}
        <select value={page?.id ?? ''} onChange={(e) => setSelected(Number(e.target.value))}>
          {pages.data.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </select>
      </label>
      {page && <PageForm key={page.id} page={page} />}
    </AdminBlock>
  );
}

function PageForm({ page }: { page: AdminStaticPage }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveStaticPage();
  const [title, setTitle] = useState(page.title);
  const [content, setContent] = useState(page.content);
  const [preview, setPreview] = useState<string | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const showPreview = async () => {
    try {
      setPreview((await previewStaticPage(content)).content);
      setPreviewError(null);
    } catch (err) {
      setPreviewError(actionErrorText(err));
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id: page.id, title, content }, { onSuccess: (saved) => toast.success(t('admin.page_saved', { title: saved.title })) });
  };
  return (
    <form className="admin-form" onSubmit={onSubmit} aria-label={t('admin.edit_product', { title: page.title })}>
      <label className="admin-form-full">
        {t('admin.product_title')}
        <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
      </label>
      <label className="admin-form-full">
        {t('admin.page_html')}
        <textarea value={content} onChange={(e) => setContent(e.target.value)} rows={10} />
      </label>
      <div className="admin-form-actions">
        <button type="button" className="button" onClick={() => void showPreview()}>
          {t('admin.preview')}
        </button>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('admin.save')}
        </button>
      </div>
      <InlineError message={previewError} />
      {preview !== null && (
        // The server's sanitised HTML (no script, handlers or foreign schemes), the same the public page shows.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server by sanitizePageHtml.
        <section className="admin-preview static-page-content" aria-label={t('admin.preview')} dangerouslySetInnerHTML={{ __html: preview }} />
      )}
      <ActionError error={save.error} />
    </form>
  );
}

export function CurrenciesEditor() {
  const { t } = useTranslation();
  const currencies = useAdminCurrencies();
  return (
    <AdminBlock title={t('admin.currencies')}>
      <p className="muted small">{t('admin.currencies_hint')}</p>
      <AdminList query={currencies} rowKey={(c) => c.code} variant="rows">
        {(c) => <CurrencyRow currency={c} />}
      </AdminList>
    </AdminBlock>
  );
}

function CurrencyRow({ currency }: { currency: AdminCurrency }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveCurrency();
  const [rate, setRate] = useState(currency.rate);
  const [symbol, setSymbol] = useState(currency.symbol);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ code: currency.code, rate, symbol }, { onSuccess: () => toast.success(t('admin.saved')) });
  };
  return (
    <form className="admin-inline-actions" onSubmit={onSubmit} aria-label={currency.code}>
      <strong>{currency.code}</strong>
      <input aria-label={t('admin.symbol')} value={symbol} onChange={(e) => setSymbol(e.target.value)} size={4} />
      <input aria-label={t('admin.rate')} value={rate} onChange={(e) => setRate(e.target.value)} disabled={currency.is_default} size={12} />
      <button type="submit" className="button small-button" disabled={save.isPending}>
        {t('admin.save')}
      </button>
      <ActionError error={save.error} />
    </form>
  );
}

export function SocialLinksEditor() {
  const { t } = useTranslation();
  const links = useAdminSocialLinks();
  return (
    <AdminBlock title={t('admin.social_links')}>
      <AdminList query={links} rowKey={(l) => l.id} variant="rows">
        {(l) => <SocialLinkRow link={l} />}
      </AdminList>
    </AdminBlock>
  );
}

function SocialLinkRow({ link }: { link: SocialLink }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveSocialLink();
  const [url, setUrl] = useState(link.url);
  const [image, setImage] = useState(link.image);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id: link.id, url, image }, { onSuccess: () => toast.success(t('admin.saved')) });
  };
  return (
    <form className="admin-inline-actions" onSubmit={onSubmit} aria-label={link.url}>
      <input aria-label={t('admin.link_url')} value={url} onChange={(e) => setUrl(e.target.value)} size={30} />
      <input aria-label={t('admin.link_icon')} value={image} onChange={(e) => setImage(e.target.value)} size={20} />
      <button type="submit" className="button small-button" disabled={save.isPending}>
        {t('admin.save')}
      </button>
      <ActionError error={save.error} />
    </form>
  );
}
