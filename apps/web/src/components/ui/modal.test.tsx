import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal, ModalCancel } from './modal';

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

function FilledForm() {
  const [open, setOpen] = useState(true);
  const [text, setText] = useState('');
  if (!open) return <p>closed</p>;
  return (
    <Modal title="Request a refund" onClose={() => setOpen(false)} dirty={text !== ''}>
      <label>
        Message
        <textarea value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <ModalCancel>Cancel</ModalCancel>
    </Modal>
  );
}

describe('a filled form in a dialog (issue 31)', () => {
  it('closes at once while empty', () => {
    render(<FilledForm />);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.getByText('closed')).toBeTruthy();
  });

  it('asks before Escape, the close button or Cancel throw away what was typed', () => {
    render(<FilledForm />);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'The file is broken.' } });
    const dialog = screen.getByRole('dialog', { name: 'Request a refund' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    const ask = screen.getByRole('alertdialog', { name: 'Throw away what you entered?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep editing' }));
    // Escape again, or Keep editing, goes back to the form with the text kept.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(ask.isConnected || screen.getByRole('alertdialog')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('The file is broken.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.getByText('closed')).toBeTruthy();
  });
});
