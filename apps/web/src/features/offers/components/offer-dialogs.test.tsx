import type { Offer } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { siteSettings } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { offerFixture } from '../testing/fixtures';
import { checkCard } from './card-payout-form';
import { MyProjects } from './my-projects';

afterEach(() => vi.unstubAllGlobals());

const countries = [
  { id: 276, code: 'DE', title: 'Germany' },
  { id: 620, code: 'PT', title: 'Portugal' },
];
const fromProfile = {
  first_name: 'Sofia',
  last_name: 'Ramos',
  email: 'seller@example.com',
  phone: '+351 912 345 678',
  address: '',
  city: '',
  post_code: '',
  country: null,
  currency: 'EUR',
};

/** A small server: the offer list follows the moves the calls make, with the real envelope shapes. */
function offerServer(start: Offer, extra: Parameters<typeof fakeApi>[0] = {}) {
  let current = start;
  const move = (status: Offer['status'], message: string) => {
    current = { ...current, status, status_note: null };
    return okAnswer(current, { message });
  };
  const calls = fakeApi({
    'GET /api/offer/history': () => okAnswer([current]),
    'GET /api/offer/contact-details': () => okAnswer(fromProfile),
    'GET /api/countries': () => okAnswer(countries),
    'POST /api/offer/approve': () => move('approved', 'Deal is accepted'),
    'POST /api/offer/decline': () => move('declined_by_user', 'Deal is declined'),
    'POST /api/offer/request-payout/card': () =>
      move('payout_processing', 'Deal is completed. You will receive your funds within 3-5 business days to your card.'),
    'POST /api/offer/request-payout/sepa': () => move('payout_processing', 'Deal is completed. You will receive your funds within 5 business days.'),
    ...extra,
  });
  return calls;
}

const counterOffer = offerFixture({ id: 7, status: 'offer', user_price: 50, service_price: 40, status_note: 'We like the colours.' });
const nextYear = String(new Date().getFullYear() + 1);

async function openOffer() {
  renderWithApp(<MyProjects />);
  fireEvent.click(await screen.findByRole('button', { name: 'View Harbour at Dawn' }));
  return screen.findByRole('dialog', { name: 'Offer details' });
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

async function fillContact() {
  const dialog = await screen.findByRole('dialog', { name: 'Contact details' });
  await waitFor(() => expect(field('First name').value).toBe('Sofia'));
  await screen.findByRole('option', { name: 'Portugal' });
  return dialog;
}

describe('A counter-offer’s dialogs', () => {
  it('accept → contact details (prefilled, every SPEC message) → card (every SPEC message) → Deal is completed', async () => {
    const calls = offerServer(counterOffer);
    const details = await openOffer();
    expect(within(details).getByText('We would like to buy your work for €40.00.')).toBeTruthy();
    expect(within(details).getByTestId('service-price').textContent).toBe('€40.00');
    expect(within(details).getByText('We like the colours.')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Accept' }));

    const contact = await fillContact();
    expect(calls.find((c) => c.path === '/api/offer/approve')?.body).toEqual({ id: 7 });
    expect(field('Last name').value).toBe('Ramos');
    expect(field('E-mail').value).toBe('seller@example.com');
    type('First name', '  ');
    type('Phone', '');
    click('Continue');
    const errors = await within(contact).findByRole('alert');
    expect(within(errors).getByText('Please fix the following errors:')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(errors));
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['First name is required.', 'Phone is required.', 'Address is required.', 'City is required.', 'Post code is required.', 'Country is required.']);
    type('First name', 'Sofia');
    type('Phone', '+351 912 345 678');
    type('Address', 'Rua Augusta 1');
    type('City', 'Lisbon');
    type('Post code', '1100-048');
    fireEvent.change(screen.getByLabelText('Country'), { target: { value: '620' } });
    expect((screen.getByLabelText('Credit Card') as HTMLInputElement).checked).toBe(true);
    click('Continue');

    const card = await screen.findByRole('dialog', { name: 'Payment details · Credit Card' });
    expect(within(card).getByText('You receive €40.00')).toBeTruthy();
    expect(field('Cardholder name').value).toBe('Sofia Ramos');
    expect(field('Cardholder name').readOnly).toBe(true);
    const expectMessage = async (message: string, label: string) => {
      click('Request payout');
      const shown = await within(card).findByText(message);
      expect(shown.className).toContain('field-error');
      if (label) expect(field(label).getAttribute('aria-invalid')).toBe('true');
    };
    await expectMessage('Please agree to the terms and conditions.', 'I agree to the terms and conditions');
    fireEvent.click(screen.getByLabelText('I agree to the terms and conditions'));
    await expectMessage('Please enter a valid card number', 'Card number');
    type('Card number', '4242424242424241');
    expect(field('Card number').value).toBe('4242 4242 4242 4241');
    await expectMessage('Please enter a valid card number', 'Card number');
    type('Card number', '424242424242');
    await expectMessage('Please enter a valid card number', 'Card number');
    type('Card number', '4242 4242 4242 4242');
    type('Expiry month', '13');
    await expectMessage('Please enter a valid expiry month (1-12)', 'Expiry month');
    type('Expiry month', '12');
    type('Expiry year', '2019');
    await expectMessage('Please enter a valid expiry year', 'Expiry year');
    type('Expiry year', String(new Date().getFullYear() + 21));
    await expectMessage('Please enter a valid expiry year', 'Expiry year');
    type('Expiry year', nextYear);
    expect(calls.some((c) => c.path.startsWith('/api/offer/request-payout'))).toBe(false);
    click('Request payout');

    const result = await screen.findByRole('dialog', { name: 'Deal is completed' });
    expect(within(result).getByText('You will receive your funds within 3-5 business days to your card.')).toBeTruthy();
    const payout = calls.find((c) => c.path === '/api/offer/request-payout/card')!;
    expect(payout.headers['X-XSRF-TOKEN']).toBe('t');
    expect(payout.body).toEqual({
      id: 7,
      paymentType: 'card',
      first_name: 'Sofia',
      last_name: 'Ramos',
      name: 'Sofia',
      surname: 'Ramos',
      email: 'seller@example.com',
      phone: '+351 912 345 678',
      address: 'Rua Augusta 1',
      city: 'Lisbon',
      post_code: '1100-048',
      postCode: '1100-048',
      country: 620,
      currency: 'EUR',
      card_number: '4242424242424242',
      expire_month: 12,
      expire_year: Number(nextYear),
      terms: true,
      card_holder_name: 'Sofia Ramos',
    });
    fireEvent.click(within(result).getByText('Close', { selector: 'button' }));
    // The list was reloaded after each move.
    expect(await screen.findByText('Payout processing')).toBeTruthy();
  });

  it('says the card has expired when its month is already past this year', () => {
    const now = new Date(2026, 10, 24);
    const card = { card_number: '4242 4242 4242 4242', terms: true };
    expect(checkCard({ ...card, expire_month: '10', expire_year: '2026' }, now)).toEqual({ field: 'expire_month', key: 'payout.card_expired' });
    expect(checkCard({ ...card, expire_month: '11', expire_year: '2026' }, now)).toBeNull();
    expect(checkCard({ ...card, expire_month: '1', expire_year: '2046' }, now)).toBeNull();
    expect(checkCard({ ...card, expire_month: '1', expire_year: '2047' }, now)).toEqual({ field: 'expire_year', key: 'payout.year_invalid' });
  });

  it('shows the server’s refusal of the card under its field', async () => {
    offerServer(offerFixture({ id: 7, status: 'approved', service_price: 40 }), {
      'POST /api/offer/request-payout/card': () =>
        jsonAnswer(422, { status: 'ERROR', message: 'This card cannot receive payouts.', errors: { card_number: ['This card cannot receive payouts.'] } }),
    });
    const details = await openOffer();
    expect(within(details).getByText('You accepted our offer. Enter your payment details to be paid.')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Enter payment details' }));
    await fillContact();
    type('Address', 'Rua Augusta 1');
    type('City', 'Lisbon');
    type('Post code', '1100-048');
    fireEvent.change(screen.getByLabelText('Country'), { target: { value: '620' } });
    click('Continue');
    await screen.findByRole('dialog', { name: 'Payment details · Credit Card' });
    type('Card number', '4000 0000 0000 0002');
    type('Expiry month', '1');
    type('Expiry year', nextYear);
    fireEvent.click(screen.getByLabelText('I agree to the terms and conditions'));
    click('Request payout');
    const message = await screen.findByText('This card cannot receive payouts.');
    expect(message.className).toContain('field-error');
    expect(field('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('dialog', { name: 'Deal is completed' })).toBeNull();
  });

  it('decline → Deal is declined', async () => {
    const calls = offerServer(counterOffer);
    const details = await openOffer();
    fireEvent.click(within(details).getByRole('button', { name: 'Decline' }));
    const result = await screen.findByRole('dialog', { name: 'Deal is declined' });
    expect(within(result).getByText('You declined our offer. The deal is closed.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/offer/decline')?.body).toEqual({ id: 7 });
  });

  it('a refused move shows the server’s message and stays on the details', async () => {
    offerServer(counterOffer, {
      'POST /api/offer/approve': () => jsonAnswer(409, { status: 'ERROR', message: 'This offer was already declined.' }),
    });
    const details = await openOffer();
    fireEvent.click(within(details).getByRole('button', { name: 'Accept' }));
    expect(await within(details).findByText('This offer was already declined.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Contact details' })).toBeNull();
  });

  it('after a failed payout offers to try again, here by bank transfer with the IBAN checked by mod-97', async () => {
    const calls = offerServer(offerFixture({ id: 9, status: 'approved', service_price: 40, status_note: 'The card was declined by the issuer.' }), {
      'GET /api/offer/contact-details': () => okAnswer({ ...fromProfile, address: 'Rua Augusta 1', city: 'Lisbon', post_code: '1100-048', country: 620 }),
    });
    const details = await openOffer();
    expect(within(details).getByText('Your payout could not be completed: The card was declined by the issuer.')).toBeTruthy();
    fireEvent.click(within(details).getByRole('button', { name: 'Try the payout again' }));
    await fillContact();
    expect((screen.getByLabelText('Country') as HTMLSelectElement).value).toBe('620');
    fireEvent.click(screen.getByLabelText('Bank transfer (SEPA)'));
    click('Continue');
    const bank = await screen.findByRole('dialog', { name: 'Payment details · Bank transfer (SEPA)' });
    expect(field('Recipient full name').value).toBe('Sofia Ramos');
    click('Request payout');
    expect(await within(bank).findByText('IBAN is required')).toBeTruthy();
    type('IBAN', 'DE89 3704 0044 0532 0130 01');
    click('Request payout');
    expect(await within(bank).findByText('Please enter a valid IBAN')).toBeTruthy();
    type('IBAN', 'de89 3704 0044 0532 0130 00');
    click('Request payout');
    const result = await screen.findByRole('dialog', { name: 'Deal is completed' });
    expect(within(result).getByText('You will receive your funds within 5 business days.')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/offer/request-payout/sepa')?.body).toMatchObject({
      id: 9,
      paymentType: 'sepa',
      account_number: 'DE89370400440532013000',
      recipient_full_name: 'Sofia Ramos',
      country: 620,
    });
  });
  it('hole 2: under the manual payout provider the creator is offered a bank transfer only', async () => {
    offerServer(offerFixture({ id: 11, status: 'approved', service_price: 40 }), {
      'GET /api/settings': () => okAnswer(siteSettings({ payout_methods: ['sepa'] })),
      'GET /api/offer/contact-details': () => okAnswer({ ...fromProfile, address: 'Rua Augusta 1', city: 'Lisbon', post_code: '1100-048', country: 620 }),
    });
    const details = await openOffer();
    fireEvent.click(within(details).getByRole('button', { name: 'Enter payment details' }));
    await fillContact();
    await waitFor(() => expect(screen.queryByLabelText('Credit Card')).toBeNull());
    expect((screen.getByLabelText('Bank transfer (SEPA)') as HTMLInputElement).checked).toBe(true);
    click('Continue');
    expect(await screen.findByRole('dialog', { name: 'Payment details · Bank transfer (SEPA)' })).toBeTruthy();
  });
});
