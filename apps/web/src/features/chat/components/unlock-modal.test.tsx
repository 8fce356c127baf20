import { de } from '@atelier/shared/i18n/de';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { chatOf, messageOf } from './chat-test-data';
import { Conversation } from './conversation';

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const locked = messageOf({
  id: 8,
  type: 'locked_image',
  user: { id: 7 },
  message: null,
  attachment_url: '/storage/chat-previews/abc.webp',
  is_locked: true,
  is_preview: true,
  price: { amount: 40, formatted: '40.00 €', currency: 'EUR', today: null },
});
const unlocked = { ...locked, is_locked: false, is_preview: false, attachment_url: '/api/chat/12/messages/8/attachment' };

function api(messages: () => unknown[], unlock: () => Response, extra = {}) {
  return fakeApi({
    'GET /api/chat/12/messages': () => jsonAnswer(200, { status: 'OK', payload: messages(), meta: { next: null } }),
    'POST /api/chat/12/unlock': unlock,
    ...extra,
  });
}

describe('unlock modal', () => {
  it('the buyer sees the image blurred with Unlock and the price; confirming pays from the balance and opens it in a new tab', async () => {
    let paid = false;
    const calls = api(
      () => [paid ? unlocked : locked],
      () => {
        paid = true;
        return okAnswer({ status: 'Success', message: unlocked });
      },
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />);
    const image = await screen.findByTestId('locked-image');
    expect(image.textContent).toContain('Unlock');
    expect(image.textContent).toContain('€40.00');
    fireEvent.click(image);
    const dialog = screen.getByRole('dialog', { name: 'Unlock this image' });
    expect(dialog.textContent).toContain('Pay the price to see and download the original image.');
    expect(screen.getByTestId('unlock-amount').textContent).toBe('€40.00');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByTestId('locked-image'));
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Image unlocked')).toBeTruthy();
    const link = await screen.findByTestId('unlocked-image');
    expect(link.getAttribute('href')).toBe('/api/chat/12/messages/8/attachment');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(calls.find((c) => c.path === '/api/chat/12/unlock')?.body).toEqual({ message_id: 8 });
    expect(calls.find((c) => c.path === '/api/chat/12/unlock')?.headers['Idempotency-Key']).toBeTruthy();
  });

  it('issue 33: before paying, the dialog shows the net, the VAT and the total the unlock charges (a business: reverse charge)', async () => {
    api(
      () => [locked],
      () => jsonAnswer(409, {}),
      { 'GET /api/user/tax': () => okAnswer({ country: 'FR', rate: 0, list_rate: 20, reverse_charge: true, choices: null }) },
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />);
    fireEvent.click(await screen.findByTestId('locked-image'));
    expect((await screen.findByTestId('tax-vat')).textContent).toContain('Reverse charge');
    expect(screen.getByTestId('tax-net').textContent).toContain('€33.33');
    expect(screen.getByTestId('tax-total').textContent).toContain('€33.33');
  });

  it('issue 33: under the paid image the buyer sees what they paid and its VAT, or that a business paid under reverse charge', async () => {
    const withVat = { ...unlocked, tax: { country: 'DE', rate: 19, net_minor: 3361, vat_minor: 639, reverse_charge: false } };
    api(
      () => [withVat],
      () => jsonAnswer(409, {}),
    );
    const view = renderWithApp(<Conversation chat={chatOf({ status: 'active' })} meId={3} />);
    expect((await screen.findByTestId('unlocked-paid')).textContent).toBe('Paid · €40.00 · incl. VAT 19 %: €6.39');
    view.unmount();
    const business = {
      ...unlocked,
      price: { ...unlocked.price!, amount: 33.33 },
      tax: { country: 'FR', rate: 0, net_minor: 3333, vat_minor: 0, reverse_charge: true },
    };
    api(
      () => [business],
      () => jsonAnswer(409, {}),
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'active' })} meId={3} />);
    expect((await screen.findByTestId('unlocked-paid')).textContent).toBe('Paid · €33.33 · Reverse charge: no VAT charged');
  });

  it('bug 12: the creator sees their own delivered locked image unblurred, without Unlock, marked with its price', async () => {
    const own = { ...locked, is_preview: false, attachment_url: '/api/chat/12/messages/8/attachment' };
    api(
      () => [own],
      () => jsonAnswer(403, {}),
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={7} />);
    const image = await screen.findByTestId('own-locked-image');
    expect(image.textContent).toContain('Locked · €40.00');
    expect(image.querySelector('img')?.getAttribute('src')).toBe('/api/chat/12/messages/8/attachment');
    expect(image.querySelector('a')?.getAttribute('target')).toBe('_blank');
    expect(screen.queryByTestId('locked-image')).toBeNull();
    expect(screen.queryByRole('button', { name: /Unlock/ })).toBeNull();
  });

  it('issue 18 bug 7: a paid image shows what was paid, in euros, with today’s amount in the chosen currency as a hint', async () => {
    const paid = { ...unlocked, price: { amount: 40, formatted: '40.00 €', currency: 'EUR', today: { amount: 6480, currency: 'JPY' } } };
    api(
      () => [paid],
      () => jsonAnswer(403, {}),
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'active' })} meId={7} />);
    const image = await screen.findByTestId('own-locked-image');
    expect(image.textContent).toContain('Paid · €40.00 (about ¥6,480 today)');
  });

  it('issue 18 bug 7: in German the price to unlock reads 6.480 ¥, without decimals, and a price offer reads in German', async () => {
    i18n.addResourceBundle('de', de);
    await i18n.changeLanguage('de');
    const inYen = { ...locked, price: { amount: 6480, formatted: '6480 ¥', currency: 'JPY', today: null } };
    const offer = messageOf({
      id: 5,
      type: 'price_proposal',
      user: { id: 7 },
      message: 'Price offered: 6480 ¥',
      price: { amount: 6480, formatted: '6480 ¥', currency: 'JPY', today: null },
    });
    api(
      () => [offer, inYen],
      () => jsonAnswer(403, {}),
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />);
    // (Testing Library reads the no-break space as a space.)
    expect(await screen.findByText('Preis angeboten: 6.480 ¥')).toBeTruthy();
    const image = await screen.findByTestId('locked-image');
    expect(image.textContent).toContain('6.480\u00a0¥');
    fireEvent.click(image);
    expect(screen.getByTestId('unlock-amount').textContent).toBe('6.480\u00a0¥');
  });

  it('a cancelled deal’s image stays blurred for the buyer, with no Unlock', async () => {
    api(
      () => [locked],
      () => jsonAnswer(409, {}),
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'active' })} meId={3} />);
    const image = await screen.findByTestId('locked-image');
    expect(image.tagName).toBe('SPAN');
    expect(image.textContent).toContain('No longer for sale');
  });

  it('a card payment in the dialog ends in place: the notice, the chat refreshed, never the payment pages', async () => {
    let paid = false;
    const calls = api(
      () => [paid ? unlocked : locked],
      () =>
        okAnswer({
          status: 'Pending',
          payment_type: 'widget',
          order_id: 56,
          widget_data: { checkout_url: '/never-loads.js', checkout: 'tok', public_key: 'pk_sandbox', payment_type: 'widget' },
        }),
      {
        'GET /api/deposit/status': () => {
          paid = true;
          return okAnswer({ status: 'success', error_message: null, redirect_url: null });
        },
      },
    );
    const { router } = renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />, { path: '/dashboard/chat?chat=12' });
    fireEvent.click(await screen.findByTestId('locked-image'));
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Image unlocked')).toBeTruthy();
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await screen.findByTestId('unlocked-image')).getAttribute('href')).toBe('/api/chat/12/messages/8/attachment');
    expect(router.state.location.pathname).toBe('/dashboard/chat');
    expect(calls.filter((c) => c.path === '/api/chat/12/messages').length).toBeGreaterThan(1);
  });

  it('a refusal shows the server message', async () => {
    api(
      () => [locked],
      () => jsonAnswer(422, { status: 'ERROR', message: 'Cannot unlock: No price set for this image.' }),
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />);
    fireEvent.click(await screen.findByTestId('locked-image'));
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Cannot unlock: No price set for this image.');
  });

  it('a short balance brings the card widget; a declined card says Payment failed', async () => {
    api(
      () => [locked],
      () =>
        okAnswer({
          status: 'Pending',
          payment_type: 'widget',
          order_id: 55,
          widget_data: { checkout_url: '/never-loads.js', checkout: 'tok', public_key: 'pk_sandbox', payment_type: 'widget' },
        }),
      { 'GET /api/deposit/status': () => okAnswer({ status: 'failed', error_message: 'Your card was declined.', redirect_url: null }) },
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />);
    fireEvent.click(await screen.findByTestId('locked-image'));
    fireEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Your balance does not cover the price: pay it by card.')).toBeTruthy();
    expect(await screen.findByText('Payment failed')).toBeTruthy();
  });
});

describe('unlock modal balance (issue 31)', () => {
  it('shows the balance and the balance after, as the purchase dialog does', async () => {
    api(
      () => [locked],
      () => okAnswer({ status: 'Success', message: unlocked }),
      { 'GET /api/balance': () => okAnswer({ amount: 100, currency: 'EUR', currencySymbol: '€', amount_minor: 10000 }) },
    );
    renderWithApp(<Conversation chat={chatOf({ status: 'waiting_payment' })} meId={3} />);
    fireEvent.click(await screen.findByTestId('locked-image'));
    expect((await screen.findByTestId('unlock-balance')).textContent).toBe('€100.00');
    expect(screen.getByTestId('unlock-balance-after').textContent).toBe('€60.00');
  });
});
