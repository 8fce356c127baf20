import { type ReactNode, useEffect, useId, useRef } from 'react';
import { CloseIcon } from '../../../components/ui/icons';
import { useTranslation } from '../../../lib/i18n-runtime';
import './modal.css';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * One dialog frame for every offer dialog: a modal with its title, Escape and the close button
 * close it, focus moves in on opening and back where it was on closing, and the page behind does
 * not scroll.
 */
export function Modal({ title, onClose, children, wide = false }: { title: ReactNode; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    // A form starts at its first field; any other dialog at itself, so Enter never answers for the reader.
    const first = box.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]):not(.visually-hidden), select, textarea');
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
        className={wide ? 'modal wide' : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
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
          <button type="button" className="icon-button modal-close" aria-label={t('offers.close')} onClick={onClose}>
            <CloseIcon size={20} />
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
