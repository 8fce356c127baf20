import { minorToAmount, toCurrencyMinor } from '@atelier/shared';
import { useId, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toast';
import { serverMessageOr } from '../../../lib/form-errors';
import { useTranslation } from '../../../lib/i18n-runtime';
import { Price } from '../../catalog';
import { useSelectedCurrency } from '../../currency';
import { useBalance, useInternalCurrencyName } from '../../deposits';
import { Modal } from '../../offers';
import { useSettings } from '../../site';
import { useGenerateImage } from '../api/orders';

type Props = { promptId: number; title: string; imagePrompt: boolean };

/**
 * For an owned image prompt: pick a format and a size from the settings, confirm the price and the
 * balance after it, then get a zip with a generated image (issue 18 bug 4: nothing is charged without
 * Confirm). Offered only for image prompts, and only where the site generates images
 * (`image_generation`): with an image model, or in the demo with the built-in renderer, which is
 * labelled as an illustration, not an AI model.
 */
export function GenerateImage({ promptId, title, imagePrompt }: Props) {
  const settings = useSettings().data;
  const mode = settings?.image_generation ?? 'off';
  if (!imagePrompt || mode === 'off' || !settings?.formats.length || !settings.sizes.length) return null;
  return <GenerateImageForm promptId={promptId} title={title} illustration={mode === 'illustration'} />;
}

function GenerateImageForm({ promptId, title, illustration }: { promptId: number; title: string; illustration: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const ids = { format: useId(), size: useId() };
  const settings = useSettings().data!;
  const { formats, sizes } = settings;
  const [format, setFormat] = useState<number | null>(null);
  const [size, setSize] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generate = useGenerateImage();
  const chosenFormat = format ?? formats[0]!.id;
  const chosenSize = size ?? sizes[0]!.id;

  async function run() {
    setError(null);
    try {
      await generate.mutateAsync({ prompt_id: promptId, format: chosenFormat, size: chosenSize });
      setConfirming(false);
      toast.success(t('orders.generated'));
    } catch (err) {
      const message = serverMessageOr(err, t('orders.generate_error'));
      setError(message);
      toast.error(message);
    }
  }

  return (
    <>
      <details className="generate-image">
        <summary>{t(illustration ? 'orders.generate_illustration' : 'orders.generate')}</summary>
        <div className="generate-image-form" role="group" aria-label={t('orders.generate_for', { title })}>
          {illustration && <p className="muted small">{t('orders.illustration_note')}</p>}
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
          <button
            type="button"
            className="button"
            onClick={() => {
              setError(null);
              setConfirming(true);
            }}
            disabled={generate.isPending}
          >
            {generate.isPending ? t('orders.generating') : t('orders.generate_button')}
          </button>
          <p className="muted small">{t('orders.generate_charged')}</p>
          {!confirming && <InlineError message={error} />}
        </div>
      </details>
      {confirming && (
        <ConfirmGeneration
          title={title}
          illustration={illustration}
          priceEur={settings.generation_price}
          pending={generate.isPending}
          error={error}
          onConfirm={run}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

/** The price of one image and the balance after it, in the display currency; only Confirm charges. */
function ConfirmGeneration(props: {
  title: string;
  illustration: boolean;
  priceEur: number;
  pending: boolean;
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const balance = useBalance();
  const currencyName = useInternalCurrencyName();
  const current = useSelectedCurrency().current;
  const rate = { rate: current?.value ?? 1, decimals: current?.decimals ?? 2 };
  const shown = (eurMinor: number) => minorToAmount(toCurrencyMinor(eurMinor, rate), rate.decimals);
  const priceMinor = Math.round(props.priceEur * 100);
  const currency = { code: current?.code ?? 'EUR', symbol: balance.data?.currencySymbol ?? current?.symbol ?? '€', decimals: rate.decimals };
  const afterMinor = balance.data ? balance.data.amount_minor - priceMinor : null;
  const short = afterMinor !== null && afterMinor < 0;

  return (
    <Modal title={t(props.illustration ? 'orders.generate_confirm_title_illustration' : 'orders.generate_confirm_title')} onClose={props.onCancel}>
      <p className="modal-intro">{props.title}</p>
      {props.illustration && <p className="muted small">{t('orders.illustration_note')}</p>}
      <dl className="generate-confirm">
        <div className="row">
          <dt>{t('buy.price')}</dt>
          <dd data-testid="generate-price">
            <Price amount={shown(priceMinor)} currency={currency} />
          </dd>
        </div>
        <div className="row">
          <dt>{t('balance.label', { name: currencyName })}</dt>
          <dd data-testid="generate-balance">{balance.data ? <Price amount={shown(balance.data.amount_minor)} currency={currency} /> : '…'}</dd>
        </div>
        <div className="row">
          <dt>{t('orders.generate_balance_after')}</dt>
          <dd data-testid="generate-balance-after">{afterMinor !== null ? <Price amount={shown(afterMinor)} currency={currency} /> : '…'}</dd>
        </div>
      </dl>
      {short && (
        <p className="error-text" role="status">
          {t('orders.generate_short')}
        </p>
      )}
      <InlineError message={balance.error?.message} />
      <InlineError message={props.error} />
      <div className="modal-actions">
        <button type="button" className="button" onClick={props.onCancel}>
          {t('buy.cancel')}
        </button>
        <button type="button" className="button primary" onClick={props.onConfirm} disabled={!balance.data || short || props.pending}>
          {props.pending ? t('orders.generating') : t('orders.generate_confirm')}
        </button>
      </div>
    </Modal>
  );
}
