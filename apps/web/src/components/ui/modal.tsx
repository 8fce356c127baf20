import { type ReactNode, useEffect, useId, useRef } from 'react';
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
};

/**
 * The app's one dialog primitive (issue 18): a modal with its title; Escape and the close button
 * close it; Tab stays inside; focus moves in on opening (to an element marked `data-autofocus`, else
 * the first field, else the dialog) and back to what opened it on closing; the page behind does not scroll.
 */
export function Modal({ title, onClose, children, wide = false, className = '', testId }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);

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
            onClose();
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
          <button type="button" className="icon-button modal-close" aria-label={t('cookie.close')} onClick={onClose}>
            <CloseIcon size={20} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
