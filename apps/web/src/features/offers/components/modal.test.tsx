import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { I18nextProvider } from '../../../lib/i18n-runtime';
import { Modal } from './modal';

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <I18nextProvider i18n={i18n}>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal title="Offer details" onClose={() => setOpen(false)}>
          <button type="button">Decline</button>
          <button type="button">Accept</button>
        </Modal>
      )}
    </I18nextProvider>
  );
}

describe('Offer dialog frame', () => {
  it('opens on itself (not on an answer button), keeps Tab inside, and Escape closes it with focus back on the opener', () => {
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Offer details' });
    expect(document.activeElement).toBe(dialog);
    expect(document.body.classList.contains('no-scroll')).toBe(true);

    screen.getByRole('button', { name: 'Accept' }).focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Accept' }));

    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(document.body.classList.contains('no-scroll')).toBe(false);
  });
});
