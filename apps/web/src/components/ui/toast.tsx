import { TOAST_COLORS, TOAST_DURATION_MS } from '@atelier/shared/constants';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n-runtime';

export type ToastKind = keyof typeof TOAST_DURATION_MS;
type Toast = { id: number; kind: ToastKind; text: string };
/** `clear(kind?)`: takes away the toasts on screen (of one kind), e.g. the errors of failed attempts once one succeeds. */
type ToastApi = Record<ToastKind, (text: string) => void> & { clear: (kind?: ToastKind) => void };

const ToastContext = createContext<ToastApi | null>(null);

/** SPEC §9 toasts: top-right, 380 px wide, coloured by kind, 3 s (errors 4 s). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const { t: translate } = useTranslation();
  const next = useRef(1);
  const push = useCallback((kind: ToastKind, text: string) => {
    const id = next.current++;
    setToasts((list) => [...list, { id, kind, text }]);
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_DURATION_MS[kind]);
  }, []);
  const api = useMemo<ToastApi>(
    () => ({
      success: (text) => push('success', text),
      info: (text) => push('info', text),
      warning: (text) => push('warning', text),
      error: (text) => push('error', text),
      clear: (kind) => setToasts((list) => (kind ? list.filter((t) => t.kind !== kind) : [])),
    }),
    [push],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className="toast" role={t.kind === 'error' ? 'alert' : 'status'} data-kind={t.kind} style={{ borderColor: TOAST_COLORS[t.kind] }}>
            <span className="toast-dot" style={{ background: TOAST_COLORS[t.kind] }} aria-hidden="true" />
            {t.text}
            <button
              type="button"
              className="toast-close"
              aria-label={translate('app.dismiss')}
              onClick={() => setToasts((list) => list.filter((x) => x.id !== t.id))}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast needs a ToastProvider');
  return ctx;
}
