import type { ProductVersion, ProductVersions } from '@atelier/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { offerFixture } from '../testing/fixtures';
import { MyProjects } from './my-projects';

afterEach(() => vi.unstubAllGlobals());

const first: ProductVersion = {
  id: 10,
  number: 1,
  status: 'published',
  notes: '',
  format: 'PNG',
  created_at: '2026-11-02T10:00:00.000Z',
  published_at: '2026-11-02T10:00:00.000Z',
  review_note: null,
};
const listing = offerFixture({ id: 4, deal_type: 'listing', status: 'approved', user_price: 40, service_price: 40, product_id: 77 });

/** The creator's listing and its versions as the server keeps them; the upload answers `answer` (or adds a published version). */
function server(answer?: () => Response) {
  let versions: ProductVersion[] = [];
  const calls = fakeApi({
    'GET /api/offer/history': () => okAnswer([listing]),
    'GET /api/products/77/versions': () => okAnswer({ product_id: 77, updated_at: null, versions } satisfies ProductVersions),
    'POST /api/seller/products/77/versions': ({ body }) => {
      if (answer) return answer();
      const notes = String((body as FormData).get('notes'));
      const added: ProductVersion = { ...first, id: 11, number: 2, notes, published_at: '2026-12-01T09:30:00.000Z' };
      versions = [added, first];
      return okAnswer(added, { message: 'The new version is published: your buyers are being told.' });
    },
  });
  return calls;
}

async function openListing() {
  renderWithApp(<MyProjects />);
  fireEvent.click(await screen.findByRole('button', { name: 'View Harbour at Dawn' }, { timeout: 5000 }));
  const details = await screen.findByRole('dialog', { name: 'Offer details' });
  return within(details).getByRole('region', { name: 'Upload new version' });
}

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'harbour-v2.png', { type: 'image/png' });

describe('Upload new version (issue 34)', () => {
  it('a listed work takes a new file with notes; the version is sent as a form and listed after', async () => {
    const calls = server();
    const form = await openListing();
    fireEvent.change(within(form).getByLabelText('New file'), { target: { files: [png()] } });
    fireEvent.change(within(form).getByLabelText('What changed'), { target: { value: 'Warmer colours.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Upload new version' }));
    expect(await screen.findByText('The new version is published: your buyers are being told.')).toBeTruthy();
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/api/seller/products/77/versions');
    expect(sent?.body).toBeInstanceOf(FormData);
    const data = sent!.body as FormData;
    expect(data.get('notes')).toBe('Warmer colours.');
    expect((data.get('file') as File).name).toBe('harbour-v2.png');
    // The versions are listed with their state, newest first; the form is empty again.
    const list = await within(form).findByRole('list', { name: 'Versions' });
    const items = within(list).getAllByTestId('version');
    expect(items.map((li) => li.textContent)).toEqual([expect.stringContaining('Version 2'), expect.stringContaining('Version 1')]);
    expect(items[0]!.textContent).toContain('Warmer colours.');
    expect(items[0]!.textContent).toContain('Published');
    expect(items[1]!.textContent).toContain('First release');
    expect((within(form).getByLabelText('What changed') as HTMLTextAreaElement).value).toBe('');
  });

  it('says what is missing before sending, and shows the server’s per-field messages', async () => {
    const calls = server(() => jsonAnswer(422, { status: 'ERROR', message: 'File type not supported', errors: { file: ['File type not supported'] } }));
    const form = await openListing();
    fireEvent.click(within(form).getByRole('button', { name: 'Upload new version' }));
    expect(await within(form).findByText('Please choose a file.')).toBeTruthy();
    expect(within(form).getByText('Please say what changed in this version.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByLabelText('What changed'), { target: { value: 'x'.repeat(2001) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Upload new version' }));
    expect(await within(form).findByText('The notes may be at most 2000 characters.')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('What changed'), { target: { value: 'New build.' } });
    fireEvent.change(within(form).getByLabelText('New file'), { target: { files: [new File(['MZ'], 'tool.exe')] } });
    fireEvent.click(within(form).getByRole('button', { name: 'Upload new version' }));
    expect(await within(form).findByText('File type not supported')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
  });

  it('a listing without a product, or one not approved, has no upload form', async () => {
    fakeApi({ 'GET /api/offer/history': () => okAnswer([{ ...listing, status: 'pending' }]) });
    renderWithApp(<MyProjects />);
    fireEvent.click(await screen.findByRole('button', { name: 'View Harbour at Dawn' }, { timeout: 5000 }));
    const details = await screen.findByRole('dialog', { name: 'Offer details' });
    expect(within(details).queryByRole('region', { name: 'Upload new version' })).toBeNull();
  });
});
