import { useId, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { useSettings } from '../../site';
import { useGenerateImage } from '../api/orders';

/** For an owned prompt: pick a format and a size from the settings, then get a zip with a generated image. */
export function GenerateImage({ promptId, title }: { promptId: number; title: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  const ids = { format: useId(), size: useId() };
  const settings = useSettings().data;
  const formats = settings?.formats ?? [];
  const sizes = settings?.sizes ?? [];
  const [format, setFormat] = useState<number | null>(null);
  const [size, setSize] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const generate = useGenerateImage();
  if (!formats.length || !sizes.length) return null;
  const chosenFormat = format ?? formats[0]!.id;
  const chosenSize = size ?? sizes[0]!.id;

  async function run() {
    setError(null);
    try {
      await generate.mutateAsync({ prompt_id: promptId, format: chosenFormat, size: chosenSize });
      toast.success(t('orders.generated'));
    } catch (err) {
      const message = serverMessageOr(err, t('orders.generate_error'));
      setError(message);
      toast.error(message);
    }
  }

  return (
    <details className="generate-image">
      <summary>{t('orders.generate')}</summary>
      <div className="generate-image-form" role="group" aria-label={t('orders.generate_for', { title })}>
        <label htmlFor={ids.format}>{t('orders.format')}</label>
        <select id={ids.format} value={chosenFormat} onChange={(e) => setFormat(Number(e.target.value))}>
          {formats.map((f) => (
            <option key={f.id} value={f.id}>
              {f.title}
            </option>
          ))}
        </select>
        <label htmlFor={ids.size}>{t('orders.size')}</label>
        <select id={ids.size} value={chosenSize} onChange={(e) => setSize(Number(e.target.value))}>
          {sizes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
        <button type="button" className="button" onClick={run} disabled={generate.isPending}>
          {generate.isPending ? t('orders.generating') : t('orders.generate_button')}
        </button>
        <p className="muted small">{t('orders.generate_charged')}</p>
        <InlineError message={error} />
      </div>
    </details>
  );
}
