import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

function Opener({ autofocus = false }: { autofocus?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal title="Confirm" onClose={() => setOpen(false)}>
          <button type="button">Cancel</button>
          <button type="button" data-autofocus={autofocus || undefined}>
            Pay
          </button>
        </Modal>
      )}
    </>
  );
}

describe('the one dialog primitive (issue 18)', () => {
  it('moves focus in, keeps Tab inside, closes with Esc and gives focus back to what opened it', () => {
    render(<Opener autofocus />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Confirm' });
    const pay = screen.getByRole('button', { name: 'Pay' });
    const close = screen.getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(pay);
    // Tab from the last control goes round to the first (the close button), Shift+Tab back.
    fireEvent.keyDown(pay, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(pay);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('without a marked control, focus goes to the dialog itself, so Enter answers nothing by accident', () => {
    render(<Opener />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(document.activeElement).toBe(screen.getByRole('dialog', { name: 'Confirm' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
