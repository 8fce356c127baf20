import { type AdminProduct, PRODUCT_STATUSES, PRODUCT_TYPES } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { FilterSelect } from '../../../components/ui/filter-select';
import { useToast } from '../../../components/ui/toast';
import { useTranslation } from '../../../lib/i18n-runtime';
import { type ProductFilters, useAdminProducts, useCreatePack, useFormatMinor, useSetPackItems, useUpdateProduct } from '../api/admin-api';
import { ActionError } from './action-error';
import { AdminList } from './admin-table';
import { ListingFields, useListing } from './publish-product';

/** The catalogue for staff: search every product in any status, hide and unhide, edit its listing. */
export function CatalogAdmin() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<ProductFilters>({});
  const [filters, setFilters] = useState<ProductFilters>({});
  const products = useAdminProducts(filters);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFilters(Object.fromEntries(Object.entries(draft).filter(([, v]) => v)));
  };
  return (
    <section className="admin-section" aria-labelledby="catalog-title">
      <h2 id="catalog-title">{t('admin.catalog_title')}</h2>
      <form className="admin-form-row" onSubmit={onSubmit} role="search">
        <label className="grow">
          {t('admin.search_products')}
          <input type="search" value={draft.q ?? ''} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </label>
        <FilterSelect
          label={t('admin.status')}
          value={draft.status ?? ''}
          onChange={(status) => setDraft({ ...draft, status })}
          options={PRODUCT_STATUSES}
          optionLabel={(s) => t(`admin.product_status_${s}`)}
          all="first"
        />
        <FilterSelect
          label={t('admin.type')}
          value={draft.product_type ?? ''}
          onChange={(product_type) => setDraft({ ...draft, product_type })}
          options={PRODUCT_TYPES}
          all="first"
        />
        <button type="submit" className="button">
          {t('admin.search')}
        </button>
      </form>
      <NewPack />
      <AdminList query={products} empty={t('admin.products_empty')} rowKey={(p) => p.id}>
        {(p) => <ProductRow product={p} />}
      </AdminList>
    </section>
  );
}

function ProductRow({ product }: { product: AdminProduct }) {
  const formatMinor = useFormatMinor();
  const { t } = useTranslation();
  const toast = useToast();
  const update = useUpdateProduct();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(product.title);
  const [description, setDescription] = useState(product.description);
  const listing = useListing(product);
  const visible = product.status === 'published';
  const onSave = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(
      {
        id: product.id,
        title,
        description,
        ...listing.values(),
      },
      {
        onSuccess: () => {
          toast.success(t('admin.saved'));
          setEditing(false);
        },
      },
    );
  };
  return (
    <article className="admin-card" aria-label={product.title}>
      <header className="admin-card-head">
        <h3>
          #{product.id} {product.title}
        </h3>
        <span className="admin-status" data-status={product.status}>
          {t(`admin.product_status_${product.status}`)}
        </span>
      </header>
      {product.pack_items_not_for_sale && product.pack_items_not_for_sale.length > 0 && (
        <p className="admin-flag" role="status" data-flag="pack-items-not-for-sale">
          {t('admin.pack_flag', { ids: product.pack_items_not_for_sale.map((id) => `#${id}`).join(', ') })}
          {product.pack_sells === false && ` ${t('admin.pack_stopped')}`}
        </p>
      )}
      <p className="muted small">
        {product.product_type} · @{product.author.nickname} · {formatMinor(product.price_minor)}
        {product.tags.length > 0 && ` · ${product.tags.map((x) => `#${x}`).join(' ')}`}
      </p>
      <div className="admin-form-actions">
        <button
          type="button"
          className={`button small-button${visible ? ' danger' : ''}`}
          disabled={update.isPending}
          onClick={() => update.mutate({ id: product.id, status: visible ? 'hidden' : 'published' }, { onSuccess: () => toast.success(t('admin.saved')) })}
        >
          {visible ? t('admin.hide') : t('admin.unhide')}
        </button>
        <button type="button" className="button small-button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          {t('admin.edit')}
        </button>
      </div>
      {product.product_type === 'pack' && <PackItems packId={product.id} />}
      {editing && (
        <form className="admin-form" onSubmit={onSave} aria-label={t('admin.edit_product', { title: product.title })}>
          <label className="admin-form-full">
            {t('admin.product_title')}
            <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
          </label>
          <label className="admin-form-full">
            {t('admin.description')}
            <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={3} maxLength={5000} />
          </label>
          <ListingFields {...listing.fields} />
          <div className="admin-form-actions">
            <button type="submit" className="button primary" disabled={update.isPending}>
              {t('admin.save')}
            </button>
          </div>
        </form>
      )}
      <ActionError error={update.error} />
    </article>
  );
}

/** Product ids as staff type them: "12, 15 18" → [12, 15, 18]. */
const parseIds = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/** A new pack from products named by id (staff-built packs are platform-owned). */
function NewPack() {
  const { t } = useTranslation();
  const toast = useToast();
  const create = useCreatePack();
  const [title, setTitle] = useState('');
  const [price, setPrice] = useState('');
  const [ids, setIds] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { title, description: '', price: Number(price.replace(',', '.')), product_ids: parseIds(ids), status: 'draft' },
      {
        onSuccess: (pack) => {
          toast.success(t('admin.pack_created', { title: pack.title }));
          setTitle('');
          setPrice('');
          setIds('');
        },
      },
    );
  };
  return (
    <details className="admin-details">
      <summary>{t('admin.new_pack')}</summary>
      <form className="admin-form" onSubmit={onSubmit} aria-label={t('admin.new_pack')}>
        <div className="admin-form-row">
          <label className="grow">
            {t('admin.product_title')}
            <input value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
          </label>
          <label>
            {t('admin.list_price')}
            <input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} required />
          </label>
          <label className="grow">
            {t('admin.pack_items')}
            <input value={ids} onChange={(e) => setIds(e.target.value)} placeholder="12, 15, 18" required />
          </label>
        </div>
        <p className="muted small">{t('admin.pack_hint')}</p>
        <div className="admin-form-actions">
          <button type="submit" className="button primary" disabled={create.isPending}>
            {t('admin.create_pack')}
          </button>
        </div>
        <ActionError error={create.error} />
      </form>
    </details>
  );
}

/** A pack's items, edited as a list of product ids in order. */
function PackItems({ packId }: { packId: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSetPackItems();
  const [ids, setIds] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ id: packId, product_ids: parseIds(ids) }, { onSuccess: () => toast.success(t('admin.saved')) });
  };
  return (
    <form className="admin-form-row" onSubmit={onSubmit} aria-label={t('admin.pack_items')}>
      <label className="grow">
        {t('admin.pack_items')}
        <input value={ids} onChange={(e) => setIds(e.target.value)} placeholder="12, 15, 18" required />
      </label>
      <button type="submit" className="button small-button" disabled={save.isPending}>
        {t('admin.save')}
      </button>
      <ActionError error={save.error} />
    </form>
  );
}
