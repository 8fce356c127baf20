import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { fakeUpload } from '../testing/fake-upload';
import { CreateOfferDialog } from './create-offer-dialog';

afterEach(() => vi.unstubAllGlobals());

const categories = [
  { id: 1, parent_id: null, title: 'Images', url: 'images' },
  { id: 2, parent_id: 1, title: 'Landscapes', url: 'images/landscapes' },
  { id: 3, parent_id: null, title: 'Prompts', url: 'prompts' },
];
const styles = [
  { id: 1, title: 'Photo-realism' },
  { id: 9, title: '3D Rendering' },
];
const created = {
  id: 5,
  title: 'Harbour at Dawn',
  description: '',
  doc_type: 'image',
  doc_url: 'offers/5.webp',
  imageUrl: '/storage/offers/5.webp',
  user_price: 12.5,
  service_price: null,
  currency: 'EUR',
  status: 'pending',
  status_note: null,
  created_at: 1_790_000_000,
  tags: [{ name: 'Photo-realism' }],
};

function siteApi() {
  return fakeApi({ 'GET /api/categories': () => okAnswer(categories), 'GET /api/offer/styles': () => okAnswer(styles) });
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send offer' }));
const pickFile = (file: File) => fireEvent.change(screen.getByLabelText('File', { selector: 'input' }), { target: { files: [file] } });
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'harbour.png', { type: 'image/png' });

/** The message shows twice: as the error toast and under its field. */
async function shows(message: string) {
  await waitFor(() => expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(2));
  expect(screen.getAllByText(message).some((el) => el.closest('.toast'))).toBe(true);
  expect(screen.getAllByText(message).some((el) => el.classList.contains('field-error'))).toBe(true);
}

describe('Create-offer dialog', () => {
  it('runs the five SPEC checks in their order, then sends the form with upload progress and says it is sent', async () => {
    siteApi();
    let release: (v: { status: number; body: unknown }) => void = () => {};
    const uploads = fakeUpload(() => new Promise((resolve) => (release = resolve)));
    const onClose = vi.fn();
    renderWithApp(<CreateOfferDialog onClose={onClose} />);
    await screen.findByRole('option', { name: 'Landscapes' });

    send();
    await shows('Please enter a title.');
    // The field with the problem gets the focus, so the creator sees it on a small screen too.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Title')));
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Harbour at Dawn' } });
    send();
    await shows('Please select a category.');
    expect(screen.queryByText('Please enter a title.', { selector: '.field-error' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: '2' } });
    send();
    await shows('Please enter a valid price.');
    fireEvent.change(screen.getByLabelText('Price (€)'), { target: { value: '0' } });
    send();
    await shows('Please enter a valid price.');
    fireEvent.change(screen.getByLabelText('Price (€)'), { target: { value: '12.50' } });
    send();
    await shows('Please upload a file.');
    pickFile(png());
    expect(screen.getByText('harbour.png')).toBeTruthy();
    send();
    await shows('Please select at least one style.');
    expect(uploads).toHaveLength(0);

    fireEvent.click(screen.getByLabelText('Photo-realism'));
    fireEvent.click(screen.getByLabelText('3D Rendering'));
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'Fishing boats at first light.' } });
    send();
    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'));
    expect(screen.getByText('Uploading… 50%')).toBeTruthy();
    expect(uploads).toHaveLength(1);
    const { form, url, headers } = uploads[0]!;
    expect(url).toBe('/api/offer/create');
    expect(headers['X-XSRF-TOKEN']).toBe('t');
    expect(Object.fromEntries([...form.entries()].filter(([k]) => k !== 'media'))).toEqual({
      title: 'Harbour at Dawn',
      description: 'Fishing boats at first light.',
      category_id: '2',
      price: '12.50',
      deal_type: 'listing',
      confirm: '1',
      keywords: 'Photo-realism 3D Rendering',
    });
    expect((form.get('media') as File).name).toBe('harbour.png');

    release({ status: 200, body: { status: 'OK', payload: created, message: 'Your offer successfully sent' } });
    const dialog = await screen.findByRole('dialog', { name: 'Your offer successfully sent' });
    expect(within(dialog).getByText('We will contact you by e-mail within 3 business days')).toBeTruthy();
    fireEvent.click(within(dialog).getByText('Close', { selector: 'button' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('issue 19: asks listing or buyout, listing first and chosen, with what each means; a buyout is sent as such', async () => {
    siteApi();
    const uploads = fakeUpload(() => ({
      status: 200,
      body: { status: 'OK', payload: { ...created, deal_type: 'buyout' }, message: 'Your offer successfully sent' },
    }));
    renderWithApp(<CreateOfferDialog onClose={() => {}} />);
    await screen.findByRole('option', { name: 'Landscapes' });
    const question = screen.getByRole('group', { name: 'How do you want to sell it?' });
    const choices = within(question).getAllByRole('radio') as HTMLInputElement[];
    expect(choices.map((c) => c.value)).toEqual(['listing', 'buyout']);
    expect(choices[0]!.checked).toBe(true);
    expect(within(question).getByLabelText(/List it under my name \(I set the price, I earn my share of each sale\)/)).toBe(choices[0]);
    // The settings' commission (20%) is spelled out.
    expect(within(question).getByText(/earn 80% of each sale \(Atelier keeps 20%\)/)).toBeTruthy();
    expect(within(question).getByText(/the rights pass to Atelier/)).toBeTruthy();
    fireEvent.click(within(question).getByLabelText(/Sell it to Atelier \(buyout\)/));

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Harbour' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Price (€)'), { target: { value: '30' } });
    pickFile(png());
    fireEvent.click(screen.getByLabelText('Photo-realism'));
    send();
    await screen.findByRole('dialog', { name: 'Your offer successfully sent' });
    expect(uploads[0]!.form.get('deal_type')).toBe('buyout');
  });

  it('refuses a file of another type or above 20 MB with the upload component’s messages', async () => {
    siteApi();
    renderWithApp(<CreateOfferDialog onClose={() => {}} />);
    pickFile(new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' }));
    await shows('File type not supported');
    expect(screen.queryByText('setup.exe')).toBeNull();

    const big = new File(['x'], 'poster.pdf', { type: 'application/pdf' });
    Object.defineProperty(big, 'size', { value: 20 * 1024 * 1024 + 1 });
    pickFile(big);
    await shows('File size exceeds 20MB limit');
    expect(screen.queryByText('poster.pdf')).toBeNull();

    const exact = new File(['x'], 'notes.TXT', { type: 'text/plain' });
    Object.defineProperty(exact, 'size', { value: 20 * 1024 * 1024 });
    pickFile(exact);
    expect(await screen.findByText('notes.TXT')).toBeTruthy();
    expect(screen.queryByText('File size exceeds 20MB limit', { selector: '.field-error' })).toBeNull();
  });

  it('shows the server’s per-field errors under their fields', async () => {
    siteApi();
    fakeUpload(() => ({
      status: 422,
      body: {
        status: 'ERROR',
        message: 'This file is not a PNG image.',
        errors: {
          media: ['This file is not a PNG image.'],
          price: ['The price may have at most 2 decimals.'],
          keywords: ['Please select at least one style.'],
        },
      },
    }));
    renderWithApp(<CreateOfferDialog onClose={() => {}} />);
    await screen.findByRole('option', { name: 'Landscapes' });
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Harbour' } });
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Price (€)'), { target: { value: '12.505' } });
    pickFile(png());
    fireEvent.click(screen.getByLabelText('Photo-realism'));
    send();
    const fileError = await screen.findByText('This file is not a PNG image.');
    expect(fileError.className).toContain('field-error');
    expect(screen.getByLabelText('File', { selector: 'input' }).getAttribute('aria-invalid')).toBe('true');
    const priceError = screen.getByText('The price may have at most 2 decimals.');
    expect(screen.getByLabelText('Price (€)').getAttribute('aria-describedby')).toBe(priceError.id);
    expect(screen.getByText('Please select at least one style.').className).toContain('field-error');
    // The form stays open with what was typed, so the creator can fix it.
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Harbour');
    expect(screen.queryByRole('dialog', { name: 'Your offer successfully sent' })).toBeNull();
  });

  it('says when the categories could not be loaded, with a retry', async () => {
    fakeApi({ 'GET /api/categories': () => jsonAnswer(404, {}), 'GET /api/offer/styles': () => okAnswer(styles) });
    renderWithApp(<CreateOfferDialog onClose={() => {}} />);
    expect(await screen.findByText('Failed to load categories.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
