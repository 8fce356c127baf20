import { createContext, type ReactNode, useContext, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n-runtime';
import { CloseIcon } from './icons';
import './modal.css';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

type ModalProps = {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  /** Extra class on the dialog box, for its content's own styles. */
  className?: string;
  testId?: string;
  /**
   * The dialog holds something the user typed or chose (issue 31): closing it (Escape, the close
   * button, a Cancel that calls `useModalClose`) asks first whether to throw that away.
   */
  dirty?: boolean;
};

/** How a control inside a dialog closes it the way the close button does (asking first when the form is filled). */
const ModalCloseContext = createContext<() => void>(() => {});
export const useModalClose = () => useContext(ModalCloseContext);

/** A dialog's Cancel button: closes it as the close button does, asking first when the form is filled. */
export function ModalCancel({ children, className = 'button', disabled }: { children: ReactNode; className?: string; disabled?: boolean }) {
  const close = useModalClose();
  return (
    <button type="button" className={className} onClick={close} disabled={disabled}>
      {children}
    </button>
  );
}

/** A dialog's last step: its one button, Close (`autoFocus`: focus starts on it). `className` lays out the row. */
export function ModalCloseRow({
  label,
  onClose,
  className = 'modal-actions',
  autoFocus = false,
}: {
  label: string;
  onClose: () => void;
  className?: string;
  autoFocus?: boolean;
}) {
  return (
    <div className={className}>
      <button type="button" className="button primary" onClick={onClose} data-autofocus={autoFocus || undefined}>
        {label}
      </button>
    </div>
  );
}

/**
 * The app's one dialog primitive (issue 18): a modal with its title; Escape and the close button
 * close it; Tab stays inside; focus moves in on opening (to an element marked `data-autofocus`, else
 * the first field, else the dialog) and back to what opened it on closing; the page behind does not scroll.
 */
export function Modal({ title, onClose, children, wide = false, className = '', testId, dirty = false }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const [asking, setAsking] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const requestClose = () => (dirty ? setAsking(true) : onClose());
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    // A form starts at its first field; any other dialog at itself, so Enter never answers for the reader.
    const first =
      box.current?.querySelector<HTMLElement>('[data-autofocus]:not([disabled])') ??
      box.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]):not(.visually-hidden), select, textarea');
    (first ?? box.current)?.focus();
    document.body.classList.add('no-scroll');
    return () => {
      document.body.classList.remove('no-scroll');
      before?.focus?.();
    };
  }, []);

  return (
    <div className="modal-backdrop">
      <div
        ref={box}
        className={`modal${wide ? ' wide' : ''}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            if (asking) setAsking(false);
            else requestClose();
          } else if (e.key === 'Tab' && box.current) {
            // Focus stays inside the dialog: Tab from the last control goes to the first, and back.
            const focusable = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute('disabled'));
            const first = focusable[0];
            const last = focusable.at(-1);
            if (!first || !last) return;
            if (e.shiftKey && (document.activeElement === first || document.activeElement === box.current)) {
              e.preventDefault();
              last.focus();
            } else if (!e.shiftKey && document.activeElement === last) {
              e.preventDefault();
              first.focus();
            }
          }
        }}
      >
        <div className="modal-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button modal-close" aria-label={t('cookie.close')} onClick={requestClose}>
            <CloseIcon size={20} />
          </button>
        </div>
        <ModalCloseContext value={requestClose}>{children}</ModalCloseContext>
        {asking && (
          <div className="modal-discard" role="alertdialog" aria-modal="false" aria-labelledby={`${titleId}-discard`}>
            <p id={`${titleId}-discard`}>{t('modal.discard_question')}</p>
            <div className="modal-actions">
              <button type="button" className="button" ref={keep} onClick={() => setAsking(false)}>
                {t('modal.keep_editing')}
              </button>
              <button type="button" className="button danger" onClick={onClose}>
                {t('modal.discard')}
              </button>
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
