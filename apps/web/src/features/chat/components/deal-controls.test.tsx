import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { chatOf, messageOf } from './chat-test-data';
import { Conversation } from './conversation';
import { DealControls } from './deal-controls';

afterEach(() => vi.unstubAllGlobals());

const noMessages = { 'GET /api/chat/12/messages': () => jsonAnswer(200, { status: 'OK', payload: [], meta: { next: null } }) };

describe('deal controls', () => {
  it('the creator proposes a price while the chat is active', async () => {
    const calls = fakeApi({ 'POST /api/chat/12/messages': () => okAnswer(messageOf({ type: 'price_proposal' })) });
    renderWithApp(<DealControls chat={chatOf()} meId={7} messages={[]} />);
    fireEvent.change(screen.getByLabelText('Your price'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Propose price' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ type: 'price_proposal', amount: 40 }));
  });

  it('the buyer has no price control while active, and answers a proposal with Accept Price or Negotiate Price', async () => {
    const { unmount } = renderWithApp(<DealControls chat={chatOf()} meId={3} messages={[]} />);
    expect(screen.queryByRole('button', { name: 'Propose price' })).toBeNull();
    unmount();
    const calls = fakeApi({ 'POST /api/chat/12/messages': () => okAnswer(messageOf({ type: 'system' })) });
    renderWithApp(<DealControls chat={chatOf({ status: 'price_proposed' })} meId={3} messages={[]} />);
    expect(screen.getByText('Waiting for your answer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Negotiate Price' }));
    expect(await screen.findByText('Asking for a better price')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Accept Price' }));
    expect(await screen.findByText('Price accepted. Artist is creating your image...')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ action: 'negotiate_price' }, { action: 'accept_price' }]);
  });

  it('a refused answer shows the server message, else the SPEC text', async () => {
    fakeApi({ 'POST /api/chat/12/messages': () => jsonAnswer(500, {}) });
    renderWithApp(<DealControls chat={chatOf({ status: 'price_proposed' })} meId={3} messages={[]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Accept Price' }));
    expect(await screen.findByText('Error responding to price offer')).toBeTruthy();
  });

  it('while generating the creator sends the image locked at the accepted price (shown, not editable)', async () => {
    const sent: FormData[] = [];
    class FakeXhr {
      status = 200;
      responseText = JSON.stringify({ status: 'OK', payload: messageOf({ type: 'locked_image' }) });
      upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
      onload?: () => void;
      onerror?: () => void;
      open() {}
      setRequestHeader() {}
      send(form: FormData) {
        sent.push(form);
        this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
        setTimeout(() => this.onload?.(), 0);
      }
    }
    fakeApi({});
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const proposal = messageOf({ id: 4, type: 'price_proposal', user: { id: 7 }, price: { amount: 40, formatted: '40.00€' } });
    renderWithApp(<DealControls chat={chatOf({ status: 'generating' })} meId={7} messages={[proposal]} />);
    const price = screen.getByLabelText('Price') as HTMLInputElement;
    expect(price.value).toBe('40.00€');
    expect(price.readOnly).toBe(true);
    fireEvent.change(screen.getByLabelText('Finished image'), { target: { files: [new File(['png'], 'cat.png', { type: 'image/png' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Send locked image' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.get('is_locked')).toBe('1');
    // The server takes the agreed price from the deal (another price would need a new proposal).
    expect(sent[0]!.get('price')).toBeNull();
    expect((sent[0]!.get('attachment') as File).name).toBe('cat.png');
  });

  it('the buyer’s input is busy while the artwork is made: Artist is working on your image...', async () => {
    fakeApi(noMessages);
    renderWithApp(<Conversation chat={chatOf({ status: 'generating' })} meId={3} />);
    const input = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(input.placeholder).toBe('Please wait while the artist works...');
    expect(screen.getByTestId('chat-status').textContent).toBe('Creating artwork...');
    expect(screen.getByText('Artist is working on your image...')).toBeTruthy();
  });

  it('busy texts follow the deal: Waiting for your answer to the buyer while a price waits, never that the artist works', async () => {
    fakeApi(noMessages);
    renderWithApp(<Conversation chat={chatOf({ status: 'price_proposed' })} meId={3} />);
    const input = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(input.placeholder).toBe('Waiting for your answer');
    expect(screen.getByTestId('deal-controls').textContent).toContain('Waiting for your answer');
    expect(screen.queryByText('Artist is working on your image...')).toBeNull();
  });

  it('the creator’s input stays usable while a deal runs', async () => {
    for (const status of ['price_proposed', 'generating', 'waiting_payment'] as const) {
      fakeApi(noMessages);
      const { unmount } = renderWithApp(<Conversation chat={chatOf({ status })} meId={7} />);
      const input = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
      expect(input.disabled).toBe(false);
      expect(input.placeholder).toBe('Write a message...');
      expect(screen.queryByText('Artist is working on your image...')).toBeNull();
      unmount();
    }
  });

  it('hole 8: both sides can cancel a running deal, after confirming', async () => {
    for (const [status, meId] of [
      ['price_proposed', 3],
      ['generating', 3],
      ['waiting_payment', 3],
      ['price_proposed', 7],
      ['generating', 7],
      ['waiting_payment', 7],
    ] as const) {
      const calls = fakeApi({ 'POST /api/chat/12/messages': () => okAnswer(messageOf({ type: 'system', message: 'Deal cancelled' })) });
      const { unmount } = renderWithApp(<DealControls chat={chatOf({ status })} meId={meId} messages={[]} />);
      fireEvent.click(screen.getByRole('button', { name: 'Cancel deal' }));
      // Nothing is sent until the person confirms; keeping the deal sends nothing.
      fireEvent.click(screen.getByRole('button', { name: 'Keep the deal' }));
      expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
      fireEvent.click(screen.getByRole('button', { name: 'Cancel deal' }));
      fireEvent.click(screen.getByRole('button', { name: 'Yes, cancel it' }));
      expect(await screen.findByText('Deal cancelled')).toBeTruthy();
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ action: 'cancel_deal' }]);
      unmount();
    }
    // Nothing to cancel while the chat is just talking.
    renderWithApp(<DealControls chat={chatOf()} meId={3} messages={[]} />);
    expect(screen.queryByRole('button', { name: 'Cancel deal' })).toBeNull();
  });
});
