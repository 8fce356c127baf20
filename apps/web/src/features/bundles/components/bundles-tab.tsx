import { BUNDLE_MAX_ITEMS, type Bundle, bundleMaxPriceMinor, createBundleInput } from '@atelier/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { type Path, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Field, InlineError, TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useMoney } from '../../currency';
import { useBundles, useBundleWorks, useProposeBundle, useWithdrawBundle } from '../api/bundles';
import './bundles.css';

/** The form as typed: the picked works' ids as strings (checkbox values) and the price as text; turned into `createBundleInput` on submit. */
const bundleForm = z.object({
  title: z.string(),
  description: z.string(),
  product_ids: z.array(z.string()),
  price: z
    .string()
    .trim()
    .regex(/^\d+([.,]\d{1,2})?$/, 'Enter the price in euros, such as 36 or 35.90.'),
});
type FormIn = z.input<typeof bundleForm>;
type FormOut = z.output<typeof bundleForm>;
const FIELDS = ['title', 'description', 'product_ids', 'price'] as const;

const toInput = (f: FormOut) => ({
  title: f.title,
  description: f.description,
  product_ids: f.product_ids.map(Number),
  price: Number(f.price.replace(',', '.')),
});

/** A creator's Dashboard tab (issue 34): propose a bundle of their own works, and follow their proposals. */
export function BundlesTab() {
  const { t } = useTranslation();
  const list = useBundles();
  return (
    <section className="panel" aria-labelledby="bundles-title" data-testid="bundles-tab">
      <h2 id="bundles-title">{t('bundles.title')}</h2>
      <p className="muted">{t('bundles.intro')}</p>
      <ProposeBundleForm />
      <h3>{t('bundles.proposals')}</h3>
      <BundleList query={list} empty={t('bundles.empty')}>
        {(b) => <BundleRow key={b.id} bundle={b} />}
      </BundleList>
    </section>
  );
}

/** One proposal: its works, price against their sum, its state (the reason of a rejection), withdraw while pending. */
export function BundleSummary({ bundle: b }: { bundle: Bundle }) {
  const { t } = useTranslation();
  const money = useMoney();
  const eur = (minor: number) => money.format(minor / 100, 'EUR');
  return (
    <div>
      <strong>{b.title}</strong> <span className={`badge bundle-${b.status}`}>{t(`bundles.status_${b.status}`)}</span>
      <p className="muted small">{t('bundles.price_against', { price: eur(b.price_minor), sum: eur(b.items_price_minor), count: b.items.length })}</p>
      <p className="small">{b.items.map((i) => i.title).join(' · ')}</p>
      {b.status === 'rejected' && b.reason && <p className="small">{t('bundles.reason', { reason: b.reason })}</p>}
    </div>
  );
}

function BundleRow({ bundle: b }: { bundle: Bundle }) {
  const { t } = useTranslation();
  const toast = useToast();
  const withdraw = useWithdrawBundle();
  return (
    <li className="bundle-row" data-testid={`bundle-${b.id}`}>
      <BundleSummary bundle={b} />
      <div className="bundle-actions">
        {b.status === 'approved' && b.pack_slug && <Link to={`/packs/${b.pack_slug}`}>{t('bundles.view_pack')}</Link>}
        {b.status === 'pending' && (
          <button
            type="button"
            className="button"
            disabled={withdraw.isPending}
            onClick={() =>
              withdraw.mutate(b.id, {
                onSuccess: () => toast.success(t('bundles.withdrawn')),
                onError: (err) => toast.error(serverMessageOr(err, t('bundles.failed'))),
              })
            }
          >
            {t('bundles.withdraw')}
          </button>
        )}
      </div>
    </li>
  );
}

/** Bundles once loaded: the server's message when they could not be, `empty` when there are none, else a row each. */
export function BundleList({ query, empty, children }: { query: UseQueryResult<Bundle[]>; empty: string; children: (bundle: Bundle) => ReactNode }) {
  const { t } = useTranslation();
  if (query.isPending) return null;
  if (query.isError)
    return (
      <p className="error-text" role="alert">
        {serverMessageOr(query.error, t('bundles.load_failed'))}
      </p>
    );
  if (query.data.length === 0) return <p className="muted">{empty}</p>;
  return <ul className="bundle-list">{query.data.map((bundle) => children(bundle))}</ul>;
}

function ProposeBundleForm() {
  const { t } = useTranslation();
  const money = useMoney();
  const toast = useToast();
  const works = useBundleWorks();
  const propose = useProposeBundle();
  const [sent, setSent] = useState(0);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(bundleForm),
    defaultValues: { title: '', description: '', product_ids: [], price: '' },
  });
  const errors = form.formState.errors;
  const picked = useWatch({ control: form.control, name: 'product_ids' }) ?? [];
  const sum = (works.data ?? []).filter((w) => picked.includes(String(w.id))).reduce((s, w) => s + w.price_minor, 0);
  const eur = (minor: number) => money.format(minor / 100, 'EUR');

  const onSubmit = form.handleSubmit(async (values) => {
    // The contract's own rules (2–20 works, a title, the price) say what is wrong before anything is sent.
    const parsed = createBundleInput.safeParse(toInput(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'title');
        form.setError((FIELDS as readonly string[]).includes(field) ? (field as Path<FormIn>) : 'title', { type: 'contract', message: issue.message });
      }
      return;
    }
    try {
      await propose.mutateAsync(parsed.data);
      toast.success(t('bundles.sent'));
      form.reset();
      setSent((n) => n + 1);
    } catch (err) {
      if (!applyServerErrors(err, form.setError, FIELDS)) toast.error(serverMessageOr(err, t('bundles.failed')));
    }
  });

  if (works.isPending) return null;
  if (works.isError) return <p className="error-text">{serverMessageOr(works.error, t('bundles.load_failed'))}</p>;
  if (works.data.length < 2) return <p className="muted">{t('bundles.too_few_works')}</p>;
  return (
    <form key={sent} onSubmit={onSubmit} noValidate className="bundle-form" aria-label={t('bundles.propose')}>
      <Field label={t('bundles.field_title')} error={errors.title?.message} autoComplete="off" {...form.register('title')} />
      <TextAreaField label={t('bundles.field_description')} error={errors.description?.message} rows={3} {...form.register('description')} />
      <fieldset className="bundle-works" aria-describedby={errors.product_ids ? 'bundle-works-error' : undefined}>
        <legend>{t('bundles.field_works', { max: BUNDLE_MAX_ITEMS })}</legend>
        <ul>
          {works.data.map((w) => (
            <li key={w.id}>
              <label className="checkbox">
                <input type="checkbox" value={String(w.id)} {...form.register('product_ids')} />
                <span>{w.title}</span>
                <span className="muted">{eur(w.price_minor)}</span>
              </label>
            </li>
          ))}
        </ul>
        <InlineError id="bundle-works-error" message={errors.product_ids?.message} />
      </fieldset>
      <p className="bundle-sum" data-testid="bundle-sum" aria-live="polite">
        {picked.length >= 2 ? t('bundles.sum_and_max', { count: picked.length, sum: eur(sum), max: eur(bundleMaxPriceMinor(sum)) }) : t('bundles.pick_two')}
      </p>
      <Field label={t('bundles.field_price')} hint={t('bundles.price_hint')} error={errors.price?.message} inputMode="decimal" {...form.register('price')} />
      <button type="submit" className="button primary" disabled={propose.isPending}>
        {t('bundles.propose')}
      </button>
    </form>
  );
}
