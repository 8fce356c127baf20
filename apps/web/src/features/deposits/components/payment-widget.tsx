import type { WidgetData } from '@atelier/shared';
import { PAYMENT_WIDGET_TIMEOUT_MS } from '@atelier/shared/constants';
import { useEffect, useRef, useState } from 'react';
import { InlineError } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { useTranslation } from '../../../lib/i18n-runtime';

/** What an in-place payment's frame reports when it ends (the page around it then reads the status). */
export type WidgetCompletion = { outcome: 'succeeded' | 'failed'; depositId: number };
type Mountable = {
  mount: (container: HTMLElement, opts: { checkout: string; public_key: string; onComplete?: (done: WidgetCompletion) => void }) => unknown;
};
declare global {
  interface Window {
    AtelierSandbox?: Mountable;
  }
}

const loaded = new Map<string, Promise<void>>();

function loadScript(src: string): Promise<void> {
  let promise = loaded.get(src);
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        loaded.delete(src);
        script.remove();
        reject(new Error('script'));
      };
      document.head.appendChild(script);
    });
    loaded.set(src, promise);
  }
  return promise;
}

/** SPEC §4 widget payment outcome: the notice a widget's reported status gives. */
export function widgetOutcome(status: string): { kind: 'success' | 'error'; key: string } {
  if (status === 'successful' || status === 'success' || status === 'pending') return { kind: 'success', key: 'payment.succeeded' };
  if (status === 'failed' || status === 'error' || status === 'declined') return { kind: 'error', key: 'payment.failed' };
  return { kind: 'error', key: 'payment.cancelled' };
}

/**
 * SPEC §2 card payment widget: a spinner, an error, or the provider's form. The provider's script
 * (checkout_url) mounts it; if the container is still empty after 7 s an error is shown. A payment
 * that stays in place (a chat image's) calls `onComplete` when its frame ends, 3-D Secure included.
 */
export function PaymentWidget({ data, onComplete }: { data: WidgetData; onComplete?: (done: WidgetCompletion) => void }) {
  const completed = useRef(onComplete);
  completed.current = onComplete;
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const fail = (message: string) => {
      if (cancelled) return;
      setError(message);
      setState('error');
    };
    const timer = setTimeout(() => {
      if (!container.current?.childElementCount) fail(t('payment.widget_failed'));
    }, PAYMENT_WIDGET_TIMEOUT_MS);
    loadScript(data.checkout_url).then(
      () => {
        if (cancelled || !container.current) return;
        try {
          if (!window.AtelierSandbox) throw new Error('no widget');
          window.AtelierSandbox.mount(container.current, {
            checkout: data.checkout,
            public_key: data.public_key,
            onComplete: (done) => completed.current?.(done),
          });
          setState('ready');
        } catch {
          fail(t('payment.widget_failed'));
        }
      },
      () => fail(t('payment.script_failed')),
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [data, t]);

  return (
    <div className="payment-widget" data-testid="payment-widget">
      {state === 'loading' && <Spinner label={t('payment.widget_loading')} />}
      <InlineError message={state === 'error' && error} />
      <div ref={container} className="payment-widget-frame" hidden={state === 'error'} />
    </div>
  );
}
