import {
  BANNER_MAX_BYTES,
  type FeaturableWork,
  type OwnStorefront,
  STOREFRONT_FEATURED_MAX,
  STOREFRONT_LINKS_MAX,
  updateStorefrontInput,
} from '@atelier/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ChangeEvent, useState } from 'react';
import { type Path, useFieldArray, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Field, InlineError } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, messageOf, serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useAuth } from '../../auth';
import { useOwnStorefront, useRemoveBanner, useSaveStorefront, useUploadBanner } from '../api/storefront';
import './storefronts.css';

type FormIn = z.input<typeof updateStorefrontInput>;
type FormOut = z.output<typeof updateStorefrontInput>;

/**
 * A creator's Storefront tab (issue 34): the banner (uploaded on its own), and a form for the
 * headline, up to 5 https links and up to 6 featured works in order. The form is checked by the
 * contract's own schema before it is sent; the server's per-field answers land under each field.
 */
export function StorefrontEditor() {
  const { t } = useTranslation();
  const own = useOwnStorefront();
  const nickname = useAuth().data?.user?.nickname;
  return (
    <section className="panel storefront-editor" aria-labelledby="storefront-title" data-testid="storefront-editor">
      <div className="storefront-editor-head">
        <h2 id="storefront-title">{t('storefront.title')}</h2>
        {nickname && (
          <Link className="button" to={`/profile/${encodeURIComponent(nickname)}`}>
            {t('storefront.view')}
          </Link>
        )}
      </div>
      <p className="muted">{t('storefront.intro')}</p>
      {own.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : own.isError ? (
        <p role="alert">{t('storefront.load_failed')}</p>
      ) : (
        <>
          <BannerEditor bannerUrl={own.data.banner_url} />
          <StorefrontForm saved={own.data} />
        </>
      )}
    </section>
  );
}

function BannerEditor({ bannerUrl }: { bannerUrl: string | null }) {
  const { t } = useTranslation();
  const toast = useToast();
  const upload = useUploadBanner();
  const remove = useRemoveBanner();
  const [error, setError] = useState<string | null>(null);

  function onPick(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    // The server checks the bytes too; these two catch the usual mistakes before anything is sent.
    if (!file.type.startsWith('image/')) return setError(t('storefront.banner_not_image'));
    if (file.size > BANNER_MAX_BYTES) return setError(t('storefront.banner_too_big'));
    setError(null);
    upload.mutate(file, {
      onSuccess: () => toast.success(t('storefront.banner_uploaded')),
      onError: (err) => setError(messageOf(err, t('storefront.banner_failed'))),
    });
  }

  return (
    <div className="storefront-banner-editor">
      <h3>{t('storefront.banner')}</h3>
      {bannerUrl ? (
        <img className="storefront-banner" src={bannerUrl} alt={t('storefront.banner_alt')} width="1500" height="500" data-testid="storefront-banner-preview" />
      ) : (
        <p className="storefront-banner storefront-banner-empty">{t('storefront.banner_none')}</p>
      )}
      <div className="storefront-banner-actions">
        <label className="button" htmlFor="banner-input">
          {t('storefront.banner_choose')}
        </label>
        <input id="banner-input" className="visually-hidden" type="file" accept="image/*" onChange={onPick} disabled={upload.isPending} />
        {bannerUrl && (
          <button
            type="button"
            className="button"
            disabled={remove.isPending}
            onClick={() => remove.mutate(undefined, { onSuccess: () => toast.success(t('storefront.banner_removed')) })}
          >
            {t('storefront.banner_remove')}
          </button>
        )}
      </div>
      <p className="field-hint">{t('storefront.banner_hint')}</p>
      {upload.isPending && <Spinner label={t('app.loading')} />}
      <InlineError message={error ?? undefined} />
    </div>
  );
}

function StorefrontForm({ saved }: { saved: OwnStorefront }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveStorefront();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(updateStorefrontInput),
    defaultValues: { headline: saved.headline, links: saved.links, featured_ids: saved.featured_ids },
  });
  const links = useFieldArray({ control: form.control, name: 'links' });
  const errors = form.formState.errors;
  const featured = form.watch('featured_ids') ?? [];
  const byId = new Map(saved.works.map((w) => [w.id, w]));
  const setFeatured = (ids: number[]) => form.setValue('featured_ids', ids, { shouldDirty: true });
  const move = (from: number, to: number) => {
    const next = [...featured];
    const [id] = next.splice(from, 1);
    next.splice(to, 0, id!);
    setFeatured(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      form.reset(values);
      toast.success(t('storefront.saved'));
    } catch (err) {
      const fields = [
        'headline',
        'links',
        'featured_ids',
        ...values.links.flatMap((_, i) => [`links.${i}.label`, `links.${i}.url`]),
        ...values.featured_ids.map((_, i) => `featured_ids.${i}`),
      ];
      if (!applyServerErrors(err, form.setError, fields)) toast.error(serverMessageOr(err, t('storefront.failed')));
    }
  });

  const listError = (e: unknown) =>
    (e as { message?: string; root?: { message?: string } } | undefined)?.message ?? (e as { root?: { message?: string } })?.root?.message;
  const others = saved.works.filter((w) => !featured.includes(w.id));

  return (
    <form onSubmit={onSubmit} noValidate className="storefront-form">
      <Field label={t('storefront.headline')} hint={t('storefront.headline_hint')} error={errors.headline?.message} {...form.register('headline')} />

      <fieldset className="storefront-fieldset">
        <legend>{t('storefront.links')}</legend>
        <p className="field-hint">{t('storefront.links_hint')}</p>
        {links.fields.map((field, i) => (
          <div className="storefront-link-row" key={field.id} data-testid="storefront-link">
            <Field label={t('storefront.link_label')} error={errors.links?.[i]?.label?.message} {...form.register(`links.${i}.label` as Path<FormIn>)} />
            <Field
              label={t('storefront.link_url')}
              type="url"
              inputMode="url"
              placeholder="https://"
              error={errors.links?.[i]?.url?.message}
              {...form.register(`links.${i}.url` as Path<FormIn>)}
            />
            <button type="button" className="button" onClick={() => links.remove(i)}>
              {t('storefront.remove_link', { n: i + 1 })}
            </button>
          </div>
        ))}
        <InlineError message={listError(errors.links)} />
        <button type="button" className="button" disabled={links.fields.length >= STOREFRONT_LINKS_MAX} onClick={() => links.append({ label: '', url: '' })}>
          {t('storefront.add_link')}
        </button>
      </fieldset>

      <fieldset className="storefront-fieldset">
        <legend>{t('storefront.featured')}</legend>
        <p className="field-hint">{t('storefront.featured_hint')}</p>
        <p aria-live="polite" data-testid="featured-count">
          {t('storefront.featured_count', { count: featured.length })}
        </p>
        {featured.length === 0 ? (
          <p className="muted">{t('storefront.featured_empty')}</p>
        ) : (
          <ol className="storefront-featured" data-testid="featured-list">
            {featured.map((id, i) => {
              const work = byId.get(id);
              const title = work?.title ?? `#${id}`;
              return (
                <li key={id} className="storefront-work">
                  <WorkThumb work={work} />
                  <span className="storefront-work-title">{title}</span>
                  <span className="storefront-work-actions">
                    <button type="button" className="button" aria-label={t('storefront.move_up', { title })} disabled={i === 0} onClick={() => move(i, i - 1)}>
                      ↑
                    </button>
                    <button
                      type="button"
                      className="button"
                      aria-label={t('storefront.move_down', { title })}
                      disabled={i === featured.length - 1}
                      onClick={() => move(i, i + 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      className="button"
                      aria-label={t('storefront.unfeature', { title })}
                      onClick={() => setFeatured(featured.filter((f) => f !== id))}
                    >
                      ✕
                    </button>
                  </span>
                  <InlineError message={errors.featured_ids?.[i]?.message} />
                </li>
              );
            })}
          </ol>
        )}
        <InlineError message={listError(errors.featured_ids)} />
        <h3>{t('storefront.your_works')}</h3>
        {saved.works.length === 0 ? (
          <p className="muted">{t('storefront.no_works')}</p>
        ) : (
          <>
            {featured.length >= STOREFRONT_FEATURED_MAX && <p className="field-hint">{t('storefront.full')}</p>}
            <ul className="storefront-candidates" data-testid="featurable-works">
              {others.map((work) => (
                <li key={work.id} className="storefront-work">
                  <WorkThumb work={work} />
                  <span className="storefront-work-title">{work.title}</span>
                  <button
                    type="button"
                    className="button"
                    aria-label={`${t('storefront.feature')}: ${work.title}`}
                    disabled={featured.length >= STOREFRONT_FEATURED_MAX}
                    onClick={() => setFeatured([...featured, work.id])}
                  >
                    {t('storefront.feature')}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </fieldset>

      <div className="storefront-save">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t('storefront.save')}
        </button>
      </div>
    </form>
  );
}

function WorkThumb({ work }: { work: FeaturableWork | undefined }) {
  return work?.image_url ? (
    <img className="storefront-thumb" src={work.image_url} alt="" width="48" height="48" loading="lazy" />
  ) : (
    <span className="storefront-thumb" aria-hidden="true" />
  );
}
