import { createDiscountInput, type Discount, discountCodeField, discountKind } from '@atelier/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type Path, useForm } from 'react-hook-form';
import { z } from 'zod';
import { Field, FieldFrame } from '../../../components/ui/field';
import { Modal, ModalCancel } from '../../../components/ui/modal';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, serverMessageOr } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format-date';
import { useTranslation } from '../../../lib/i18n-runtime';
import './discounts.css';
import { useMoney } from '../../currency';
import { type DiscountScope, useCreateDiscount, useDeleteDiscount, useDiscounts, useUpdateDiscount } from '../api/discounts';

/** The form as typed: text fields, turned into the API's input (`createDiscountInput`) on submit. */
const discountForm = z.object({
  code: discountCodeField,
  kind: discountKind,
  value: z.string().trim().min(1, 'Please enter a value.'),
  product_ids: z.string().regex(/^[\d,\s]*$/, 'List work ids separated by commas, such as 12, 15.'),
  starts_at: z.string(),
  ends_at: z.string(),
  max_uses: z.string().regex(/^\d*$/, 'The number of uses must be a whole number.'),
  automatic: z.boolean(),
});
type FormIn = z.input<typeof discountForm>;
type FormOut = z.output<typeof discountForm>;
const FIELDS = ['code', 'kind', 'value', 'product_ids', 'starts_at', 'ends_at', 'max_uses', 'automatic'] as const;

const localToIso = (local: string) => (local ? new Date(local).toISOString() : null);

/** The API's input from the form: a fixed value typed in euros travels in cents. */
function toInput(f: FormOut) {
  const value = Number(f.value.replace(',', '.'));
  return {
    code: f.code,
    kind: f.kind,
    value: f.kind === 'fixed' ? Math.round(value * 100) : value,
    product_ids: f.product_ids
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number),
    starts_at: localToIso(f.starts_at),
    ends_at: localToIso(f.ends_at),
    max_uses: f.max_uses ? Number(f.max_uses) : null,
    automatic: f.automatic,
  };
}

/**
 * A creator's Dashboard tab (issue 34): their codes and sales; create, pause or resume, delete. With
 * scope 'platform', the back office's platform codes for platform-owned works.
 */
export function DiscountsTab({ scope = 'seller' }: { scope?: DiscountScope }) {
  const { t } = useTranslation();
  const list = useDiscounts(scope);
  const [creating, setCreating] = useState(false);
  return (
    <section className="panel" aria-labelledby="discounts-title" data-testid="discounts-tab">
      <div className="discounts-head">
        <h2 id="discounts-title">{t('discounts.title')}</h2>
        <button type="button" className="button primary" onClick={() => setCreating(true)}>
          {t('discounts.new')}
        </button>
      </div>
      <p className="muted">{t(scope === 'seller' ? 'discounts.intro' : 'discounts.platform_intro')}</p>
      {list.isPending ? null : list.isError ? (
        <p className="error-text" role="alert">
          {serverMessageOr(list.error, t('discounts.load_failed'))}
        </p>
      ) : list.data.length === 0 ? (
        <p className="muted">{t('discounts.empty')}</p>
      ) : (
        <ul className="discount-list">
          {list.data.map((d) => (
            <DiscountRow key={d.id} discount={d} scope={scope} />
          ))}
        </ul>
      )}
      {creating && <CreateDiscountDialog scope={scope} onClose={() => setCreating(false)} />}
    </section>
  );
}

function DiscountRow({ discount: d, scope }: { discount: Discount; scope: DiscountScope }) {
  const { t } = useTranslation();
  const money = useMoney();
  const toast = useToast();
  const update = useUpdateDiscount(scope);
  const remove = useDeleteDiscount(scope);
  const off = d.kind === 'percent' ? t('discounts.off_percent', { value: d.value }) : t('discounts.off_fixed', { amount: money.format(d.value / 100, 'EUR') });
  const fail = (err: unknown) => toast.error(serverMessageOr(err, t('discounts.failed')));
  return (
    <li className="discount-row" data-testid={`discount-${d.code}`}>
      <div>
        <strong className="discount-code">{d.code}</strong> {off}
        {d.automatic && <span className="badge">{t('discounts.sale')}</span>}
        <p className="muted small">
          {t(`discounts.state_${d.state}`)} · {d.max_uses ? t('discounts.uses_of', { uses: d.uses, max: d.max_uses }) : t('discounts.uses', { uses: d.uses })} ·{' '}
          {d.product_ids.length ? t('discounts.works_count', { count: d.product_ids.length }) : t('discounts.all_works')}
          {d.ends_at && ` · ${t('discounts.until', { date: formatDateTime(Math.floor(Date.parse(d.ends_at) / 1000)) })}`}
        </p>
      </div>
      <div className="discount-actions">
        <button
          type="button"
          className="button"
          disabled={update.isPending}
          onClick={() => update.mutate({ id: d.id, input: { paused: !d.paused } }, { onSuccess: () => toast.success(t('discounts.saved')), onError: fail })}
        >
          {d.paused ? t('discounts.resume') : t('discounts.pause')}
        </button>
        <button
          type="button"
          className="button"
          disabled={remove.isPending}
          onClick={() => {
            if (window.confirm(t('discounts.confirm_delete', { code: d.code })))
              remove.mutate(d.id, { onSuccess: () => toast.success(t('discounts.deleted')), onError: fail });
          }}
        >
          {t('discounts.delete')}
        </button>
      </div>
    </li>
  );
}

function CreateDiscountDialog({ scope, onClose }: { scope: DiscountScope; onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const create = useCreateDiscount(scope);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(discountForm),
    defaultValues: { code: '', kind: 'percent', value: '', product_ids: '', starts_at: '', ends_at: '', max_uses: '', automatic: false },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    // The contract's own rules (1–90 %, dates in order) say what is wrong before anything is sent.
    const parsed = createDiscountInput.safeParse(toInput(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'code');
        form.setError((FIELDS as readonly string[]).includes(field) ? (field as Path<FormIn>) : 'code', { type: 'contract', message: issue.message });
      }
      return;
    }
    try {
      await create.mutateAsync(parsed.data);
      toast.success(t('discounts.created'));
      onClose();
    } catch (err) {
      if (!applyServerErrors(err, form.setError, FIELDS)) toast.error(serverMessageOr(err, t('discounts.failed')));
    }
  });
  return (
    <Modal title={t('discounts.new')} onClose={onClose} dirty={form.formState.isDirty} testId="discount-dialog">
      <form onSubmit={onSubmit} noValidate className="discount-form">
        <Field label={t('discounts.code')} hint={t('discounts.code_hint')} error={errors.code?.message} autoComplete="off" {...form.register('code')} />
        <FieldFrame
          label={t('discounts.kind')}
          error={errors.kind?.message}
          control={(a11y) => (
            <select {...a11y} {...form.register('kind')}>
              <option value="percent">{t('discounts.kind_percent')}</option>
              <option value="fixed">{t('discounts.kind_fixed')}</option>
            </select>
          )}
        />
        <Field label={t('discounts.value')} hint={t('discounts.value_hint')} error={errors.value?.message} inputMode="decimal" {...form.register('value')} />
        <Field label={t('discounts.works')} hint={t('discounts.works_hint')} error={errors.product_ids?.message} {...form.register('product_ids')} />
        <Field label={t('discounts.starts_at')} type="datetime-local" error={errors.starts_at?.message} {...form.register('starts_at')} />
        <Field label={t('discounts.ends_at')} type="datetime-local" error={errors.ends_at?.message} {...form.register('ends_at')} />
        <Field label={t('discounts.max_uses')} inputMode="numeric" error={errors.max_uses?.message} {...form.register('max_uses')} />
        <label className="checkbox">
          <input type="checkbox" {...form.register('automatic')} /> {t('discounts.automatic')}
        </label>
        <div className="buy-dialog-actions">
          <ModalCancel>{t('discounts.cancel')}</ModalCancel>
          <button type="submit" className="button primary" disabled={create.isPending}>
            {t('discounts.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
