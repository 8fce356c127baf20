import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { siteSettings } from '../../../test/fixtures';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { useSettings } from '../../site';
import { GenerateImage } from './generate-image';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const settings =
  (image_generation: 'model' | 'illustration' | 'off' = 'model') =>
  () =>
    okAnswer(
      siteSettings({
        image_generation,
        generation_price: 1.5,
        formats: [
          { id: 1, title: 'PNG' },
          { id: 2, title: 'WebP' },
        ],
        sizes: [
          { id: 1, title: '1024x1024' },
          { id: 2, title: '1536x1024' },
        ],
      }),
    );

/** Shows 'loaded' once the settings answered, so a test sees what a loaded page offers. */
function Loaded() {
  return useSettings().data ? <span>loaded</span> : null;
}

const balance = () => okAnswer({ amount: 10, currency: 'EUR', currencySymbol: '€', amount_minor: 1000 });

const zip = () =>
  new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
    status: 200,
    headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="cold-email-1.zip"' },
  });

function saveSpy() {
  URL.createObjectURL = vi.fn(() => 'blob:zip');
  URL.revokeObjectURL = vi.fn();
  const saved: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

describe('generate an image from an owned prompt', () => {
  it('issue 18 bug 4: the dialog shows the price and the balance after; Confirm sends the chosen format and size and saves the zip', async () => {
    const calls = fakeApi({ 'GET /api/settings': settings(), 'GET /api/balance': balance, 'POST /api/purchase/generate-image': zip });
    const saved = saveSpy();
    renderWithApp(<GenerateImage promptId={5} title="Cold Email" imagePrompt />);
    fireEvent.click(await screen.findByText('Generate an image'));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Size'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate an image?' });
    expect(within(dialog).getByTestId('generate-price').textContent).toBe('€1.50');
    await waitFor(() => expect(within(dialog).getByTestId('generate-balance-after').textContent).toBe('€8.50'));
    expect(within(dialog).getByTestId('generate-balance').textContent).toBe('€10.00');
    expect(calls.some((c) => c.path === '/api/purchase/generate-image')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(saved).toEqual(['cold-email-1.zip']));
    expect(calls.filter((c) => c.path === '/api/purchase/generate-image')).toHaveLength(1);
    expect(calls.find((c) => c.path === '/api/purchase/generate-image')!.body).toMatchObject({ prompt_id: 5, format: 2, size: 2 });
    expect(await screen.findByText('Your image is ready: the zip is downloaded.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('issue 18 bug 4: Cancel closes the dialog and charges nothing', async () => {
    const calls = fakeApi({ 'GET /api/settings': settings(), 'GET /api/balance': balance, 'POST /api/purchase/generate-image': zip });
    renderWithApp(<GenerateImage promptId={5} title="Cold Email" imagePrompt />);
    fireEvent.click(await screen.findByText('Generate an image'));
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByTestId('generate-balance-after').textContent).toBe('€8.50'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.path === '/api/purchase/generate-image')).toBe(false);
  });

  it('issue 18 bug 4: hidden for a text prompt and when the site generates no images', async () => {
    fakeApi({ 'GET /api/settings': settings('off'), 'GET /api/balance': balance });
    const off = renderWithApp(
      <div>
        <GenerateImage promptId={5} title="Cold Email" imagePrompt />
        <Loaded />
      </div>,
    );
    expect(await screen.findByText('loaded')).toBeTruthy();
    expect(screen.queryByText('Generate an image')).toBeNull();
    expect(screen.queryByText('Draw an illustration')).toBeNull();
    off.unmount();
    vi.unstubAllGlobals();

    fakeApi({ 'GET /api/settings': settings('model'), 'GET /api/balance': balance });
    renderWithApp(
      <div>
        <GenerateImage promptId={5} title="Cold Email" imagePrompt={false} />
        <GenerateImage promptId={6} title="Watercolor" imagePrompt />
        <Loaded />
      </div>,
    );
    expect(await screen.findAllByText('Generate an image')).toHaveLength(1);
    expect(screen.getByRole('group', { name: 'Generate an image from Watercolor' })).toBeTruthy();
  });

  it('issue 18 bug 4: in the demo the built-in renderer is offered as an illustration, not an AI model', async () => {
    fakeApi({ 'GET /api/settings': settings('illustration'), 'GET /api/balance': balance });
    renderWithApp(<GenerateImage promptId={5} title="Watercolor" imagePrompt />);
    fireEvent.click(await screen.findByText('Draw an illustration'));
    expect(screen.queryByText('Generate an image')).toBeNull();
    expect(screen.getAllByText(/built-in renderer draws an illustration.*not made by an AI model/).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('dialog', { name: 'Draw an illustration?' })).toBeTruthy();
  });

  it('shows the server’s message, or the SPEC fallback', async () => {
    fakeApi({
      'GET /api/settings': settings(),
      'GET /api/balance': balance,
      'POST /api/purchase/generate-image': () => jsonAnswer(500, { status: 'ERROR' }),
    });
    renderWithApp(<GenerateImage promptId={5} title="Cold Email" imagePrompt />);
    fireEvent.click(await screen.findByText('Generate an image'));
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Confirm' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect((await screen.findAllByText('An error occurred during image generation')).length).toBeGreaterThan(0);
  });
});
