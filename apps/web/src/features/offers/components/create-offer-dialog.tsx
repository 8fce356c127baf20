import type { Category, CreateOfferFields } from '@atelier/shared';
import { OFFER_FILE_EXTENSIONS, SELLER_DETAILS_PATH } from '@atelier/shared';
import { OFFER_FILE_MAX_BYTES } from '@atelier/shared/constants';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Field, FormError, InlineError, TextAreaField } from '../../../components/ui/field';
import { ProgressBar } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useCategories } from '../../catalog';
import { useSettings } from '../../site';
import { offerErrorMessage, useCreateOffer, useOfferStyles } from '../api/offers';
import { FileUpload } from './file-upload';
import { Modal, ModalCancel, ModalCloseRow } from './modal';
import { useRevealErrors } from './reveal-errors';

type FormValues = {
  title: string;
  description: string;
  category_id: string;
  price: string;
  styles: string[];
  confirm: boolean;
  deal_type: DealType;
};
type DealType = CreateOfferFields['deal_type'];
type ErrorField = keyof FormValues | 'media';

/** Categories as the select shows them: each top level with its children beneath it. */
function categoryGroups(list: Category[]) {
  const tops = list.filter((c) => c.parent_id === null);
  return tops.map((top) => ({ top, children: list.filter((c) => c.parent_id === top.id) }));
}

/** The server's field names (SPEC §5) mapped to the form's: `keywords` are the chosen styles. */
const SERVER_FIELDS: Record<string, ErrorField> = {
  title: 'title',
  description: 'description',
  category_id: 'category_id',
  price: 'price',
  keywords: 'styles',
  deal_type: 'deal_type',
  media: 'media',
  confirm: 'confirm',
};

/**
 * SPEC §2 create-offer dialog. The SPEC §5 checks run in their order before anything is sent, the
 * first failure shown as an error toast and under its field; the file travels with an upload
 * progress bar; the server's per-field errors go under their fields; success says the offer is sent.
 */
export function CreateOfferDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const ids = { category: useId(), styles: useId(), deal: useId() };
  const commission = useSettings().data?.commission_percent ?? 20;
  const categories = useCategories();
  const styles = useOfferStyles();
  const create = useCreateOffer();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [progress, setProgress] = useState(0);
  const [formError, setFormError] = useState<string | null>(null);
  /** The server asked for trader details first (issue 33): the form error links to them. */
  const [needsDetails, setNeedsDetails] = useState(false);
  const [sent, setSent] = useState(false);
  const errorsShown = useRevealErrors<HTMLFormElement>();
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isDirty },
  } = useForm<FormValues>({ defaultValues: { title: '', description: '', category_id: '', price: '', styles: [], confirm: true, deal_type: 'listing' } });

  function fail(field: ErrorField, message: string) {
    toast.error(message);
    if (field === 'media') setFileError(message);
    else setError(field, { type: 'client', message });
    errorsShown.reveal();
  }

  async function submit(values: FormValues) {
    clearErrors();
    setFileError(undefined);
    setFormError(null);
    // SPEC §5, in this order; the first that fails stops the form.
    const price = Number(values.price);
    if (!values.title.trim()) return fail('title', t('offers.title_required'));
    if (!values.category_id) return fail('category_id', t('offers.category_required'));
    if (values.price.trim() === '' || !Number.isFinite(price) || price <= 0) return fail('price', t('offers.price_invalid'));
    if (!file) return fail('media', t('offers.file_required'));
    if (!values.styles.length) return fail('styles', t('offers.styles_required'));

    const chosen = (styles.data ?? []).filter((s) => values.styles.includes(String(s.id)));
    const form = new FormData();
    form.append('title', values.title.trim());
    form.append('description', values.description.trim());
    form.append('category_id', values.category_id);
    form.append('price', values.price.trim());
    form.append('deal_type', values.deal_type);
    form.append('confirm', values.confirm ? '1' : '0');
    form.append('keywords', chosen.map((s) => s.title).join(' '));
    form.append('media', file, file.name);
    setProgress(0);
    try {
      await create.mutateAsync({ form, onProgress: setProgress });
      setSent(true);
    } catch (err) {
      let placed = false;
      if (err instanceof ApiError) {
        for (const [server, field] of Object.entries(SERVER_FIELDS)) {
          const message = err.field(server);
          if (!message) continue;
          placed = true;
          if (field === 'media') setFileError(message);
          else setError(field, { type: 'server', message });
        }
      }
      if (placed) errorsShown.reveal();
      else {
        setNeedsDetails(err instanceof ApiError && Boolean(err.field('seller_details')));
        const message = offerErrorMessage(err, t('offers.create_error'));
        setFormError(message);
        toast.error(message);
      }
    }
  }

  if (sent)
    return (
      <Modal title={t('offers.sent_title')} onClose={onClose}>
        <p>{t('offers.sent_text')}</p>
        <ModalCloseRow label={t('offers.close')} onClose={onClose} />
      </Modal>
    );

  const busy = create.isPending;
  return (
    <Modal title={t('offers.create_title')} onClose={busy ? () => {} : onClose} wide dirty={!busy && (isDirty || file !== null)}>
      <p className="muted modal-intro">{t('offers.create_intro')}</p>
      <form className="offer-form" onSubmit={handleSubmit(submit)} noValidate aria-busy={busy} ref={errorsShown.ref}>
        <Field label={t('offers.field_title')} maxLength={200} error={errors.title?.message} disabled={busy} {...register('title')} />
        <TextAreaField
          label={t('offers.field_description')}
          rows={3}
          maxLength={5000}
          error={errors.description?.message}
          disabled={busy}
          {...register('description')}
        />
        <div className="offer-form-row">
          <div className="field">
            <label htmlFor={ids.category}>{t('offers.field_category')}</label>
            <select
              id={ids.category}
              aria-invalid={errors.category_id ? true : undefined}
              aria-describedby={errors.category_id ? `${ids.category}-error` : undefined}
              disabled={busy}
              {...register('category_id')}
            >
              <option value="">{t('offers.category_choose')}</option>
              {categoryGroups(categories.data ?? []).map(({ top, children }) =>
                children.length ? (
                  <optgroup key={top.id} label={top.title}>
                    {children.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.title}
                      </option>
                    ))}
                  </optgroup>
                ) : (
                  <option key={top.id} value={top.id}>
                    {top.title}
                  </option>
                ),
              )}
            </select>
            <InlineError id={`${ids.category}-error`} message={errors.category_id?.message} />
            {categories.isError && !errors.category_id && (
              <p className="field-error" role="alert">
                {t('categories.load_error')}{' '}
                <button type="button" className="link-button" onClick={() => categories.refetch()}>
                  {t('products.retry')}
                </button>
              </p>
            )}
          </div>
          <Field
            label={t('offers.field_price', { symbol: '€' })}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0.01"
            error={errors.price?.message}
            disabled={busy}
            {...register('price')}
          />
        </div>
        <fieldset className="deal-types" aria-describedby={errors.deal_type ? `${ids.deal}-error` : undefined}>
          <legend>{t('offers.deal_question')}</legend>
          {(['listing', 'buyout'] as const).map((deal) => (
            <label key={deal} className="deal-type">
              <input type="radio" value={deal} disabled={busy} {...register('deal_type')} />
              <span>
                <strong>{t(`offers.deal_${deal}`)}</strong>
                <span className="small muted">{t(`offers.deal_${deal}_text`, { share: 100 - commission, commission })}</span>
              </span>
            </label>
          ))}
          <InlineError id={`${ids.deal}-error`} message={errors.deal_type?.message} />
        </fieldset>
        <fieldset
          className="field offer-styles"
          aria-invalid={errors.styles ? true : undefined}
          aria-describedby={errors.styles ? `${ids.styles}-error` : undefined}
        >
          <legend>{t('offers.field_styles')}</legend>
          <div className="style-chips">
            {(styles.data ?? []).map((style) => (
              <label key={style.id} className="style-chip">
                <input type="checkbox" value={String(style.id)} disabled={busy} {...register('styles')} />
                <span>{style.title}</span>
              </label>
            ))}
          </div>
          <InlineError id={`${ids.styles}-error`} message={errors.styles?.message} />
        </fieldset>
        <FileUpload
          label={t('offers.field_file')}
          value={file}
          onChange={(next) => {
            setFile(next);
            setFileError(undefined);
          }}
          onReject={(message) => {
            setFileError(message);
            toast.error(message);
          }}
          error={fileError}
          extensions={OFFER_FILE_EXTENSIONS}
          maxBytes={OFFER_FILE_MAX_BYTES}
          disabled={busy}
        />
        <label className="check-row">
          <input type="checkbox" disabled={busy} {...register('confirm')} />
          <span>{t('offers.confirm_ai')}</span>
        </label>
        <InlineError message={errors.confirm?.message} />
        {busy && (
          <div className="upload-progress">
            <ProgressBar percent={progress} label={t('offers.upload_progress')} />
            <span className="small muted">{t('offers.uploading', { percent: progress })}</span>
          </div>
        )}
        <FormError message={formError} />
        {needsDetails && (
          <p>
            <Link to={SELLER_DETAILS_PATH} onClick={onClose}>
              {t('sellers.give_details')}
            </Link>
          </p>
        )}
        <div className="modal-actions">
          <ModalCancel disabled={busy}>{t('offers.cancel')}</ModalCancel>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? t('auth.processing') : t('offers.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
