import type { AdminProduct } from '@atelier/shared';
import { type FormEvent, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useCategories } from '../../catalog';
import { useAdminProduct, useUpdateProduct } from '../api/admin-api';
import { ActionError } from './action-error';

/** After acceptance: the product made from the offer gets its list price, category and tags, then is published. */
export function PublishProduct({ productId }: { productId: number }) {
  const product = useAdminProduct(productId);
  if (product.isPending) return <Spinner />;
  if (product.isError)
    return (
      <p className="error-text" role="alert">
        {product.error.message}
      </p>
    );
  return <PublishForm product={product.data} />;
}

function PublishForm({ product }: { product: AdminProduct }) {
  const { t } = useTranslation();
  const toast = useToast();
  const update = useUpdateProduct();
  const listing = useListing(product);

  const save = (status?: 'published' | 'hidden') => {
    const body = {
      id: product.id,
      ...listing.values(),
      ...(status ? { status } : {}),
    };
    update.mutate(body, { onSuccess: () => toast.success(status === 'published' ? t('admin.published', { title: product.title }) : t('admin.saved')) });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save('published');
  };

  return (
    <form className="admin-form" onSubmit={onSubmit} aria-label={t('admin.publish_title')}>
      <h4>
        {t('admin.publish_title')}{' '}
        <span className="admin-status" data-status={product.status}>
          {t(`admin.product_status_${product.status}`)}
        </span>
      </h4>
      <ListingFields {...listing.fields} />
      <div className="admin-form-actions">
        {product.status !== 'published' && (
          <button type="submit" className="button primary" disabled={update.isPending}>
            {t('admin.save_and_publish')}
          </button>
        )}
        <button type="button" className="button" disabled={update.isPending} onClick={() => save()}>
          {t('admin.save')}
        </button>
        {product.status === 'published' && (
          <button type="button" className="button" disabled={update.isPending} onClick={() => save('hidden')}>
            {t('admin.hide')}
          </button>
        )}
      </div>
      <ActionError error={update.error} />
    </form>
  );
}

type Setter = (value: string) => void;

/**
 * A product's list price, category and tags as ListingFields edit them (`fields`), and as the update
 * call takes them (`values()`: the price in euros, the tags split on commas, the category when chosen).
 */
export function useListing(product: AdminProduct) {
  const [price, setPrice] = useState((product.price_minor / 100).toFixed(2));
  const [categoryId, setCategoryId] = useState(product.category_id ? String(product.category_id) : '');
  const [tags, setTags] = useState(product.tags.join(', '));
  return {
    fields: { price, setPrice, categoryId, setCategoryId, tags, setTags },
    values: () => ({
      price: Number(price.replace(',', '.')),
      tags: tags
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      ...(categoryId ? { category_id: Number(categoryId) } : {}),
    }),
  };
}

/** A product's list price, category and tags as staff set them, when publishing and in the catalog alike. */
export function ListingFields(props: { price: string; setPrice: Setter; categoryId: string; setCategoryId: Setter; tags: string; setTags: Setter }) {
  const { t } = useTranslation();
  const categories = useCategories();
  return (
    <div className="admin-form-row">
      <label>
        {t('admin.list_price')}
        <input inputMode="decimal" value={props.price} onChange={(e) => props.setPrice(e.target.value)} required />
      </label>
      <label>
        {t('admin.category')}
        <select value={props.categoryId} onChange={(e) => props.setCategoryId(e.target.value)}>
          <option value="">{t('admin.choose')}</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
      </label>
      <label className="grow">
        {t('admin.tags')}
        <input value={props.tags} onChange={(e) => props.setTags(e.target.value)} placeholder={t('admin.tags_hint')} />
      </label>
    </div>
  );
}
