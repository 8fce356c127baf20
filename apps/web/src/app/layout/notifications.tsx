import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BellIcon } from '../../components/ui/icons';

/** SPEC §2 notifications button: its dropdown says there is nothing yet. */
export function NotificationsButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onClick = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);
  return (
    <div className="popover-anchor" ref={box}>
      <button
        type="button"
        className="icon-button"
        aria-label={t('nav.notifications')}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <BellIcon />
      </button>
      {open && (
        <div id={id} className="popover" role="status">
          <strong>{t('nav.notifications')}</strong>
          <p className="muted">{t('nav.no_notifications')}</p>
        </div>
      )}
    </div>
  );
}
