import { type Review, type ReviewInput, reviewInput } from '@atelier/shared/reviews';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { TextAreaField } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { applyServerErrors, serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { type ReviewBody, useSaveReview } from '../api/reviews';

/** A buyer's review: 1–5 stars and an optional text; loaded on demand by the reviews section. */
export function ReviewForm({ productId, mine, onDone }: { productId: number; mine: Review | null; onDone?: () => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const save = useSaveReview(productId);
  const form = useForm<ReviewInput, unknown, ReviewBody>({
    resolver: zodResolver(reviewInput),
    defaultValues: { rating: mine?.rating ?? 0, text: mine?.text ?? '' },
  });
  const rating = Number(form.watch('rating'));
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit((input) =>
    save.mutate(
      { id: mine?.id ?? null, input },
      {
        onSuccess: () => {
          toast.success(t('reviews.saved'));
          onDone?.();
        },
        onError: (err) => {
          if (!applyServerErrors(err, form.setError, ['rating', 'text'])) toast.error(serverMessageOr(err, t('reviews.failed')));
        },
      },
    ),
  );
  return (
    <form className="review-form" onSubmit={onSubmit} noValidate data-testid="review-form">
      <h3 className="small-heading">{mine ? t('reviews.your_review') : t('reviews.write')}</h3>
      <fieldset className="star-input">
        <legend>{t('reviews.rating')}</legend>
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={n <= rating ? 'on' : ''}>
            <input
              type="radio"
              name="rating"
              value={n}
              checked={rating === n}
              aria-label={t('reviews.stars_label', { rating: n })}
              onChange={() => form.setValue('rating', n, { shouldValidate: true })}
            />
            <span aria-hidden="true">★</span>
          </label>
        ))}
      </fieldset>
      {errors.rating?.message && (
        <p className="field-error" role="alert">
          {errors.rating.message}
        </p>
      )}
      <TextAreaField
        id={`review-text-${productId}`}
        label={t('reviews.text')}
        rows={4}
        maxLength={2000}
        error={errors.text?.message}
        {...form.register('text')}
      />
      <div className="review-actions">
        <button type="submit" className="button primary" disabled={save.isPending}>
          {mine ? t('reviews.save') : t('reviews.submit')}
        </button>
        {mine && (
          <button type="button" className="button" onClick={onDone}>
            {t('reviews.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
