import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer, siteAnswers } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { GenerateImage } from './generate-image';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const settings = async () => {
  const base = await (await siteAnswers['GET /api/settings']!({} as never)).json();
  return okAnswer({
    ...base.payload,
    formats: [
      { id: 1, title: 'PNG' },
      { id: 2, title: 'WebP' },
    ],
    sizes: [
      { id: 1, title: '1024x1024' },
      { id: 2, title: '1536x1024' },
    ],
  });
};

describe('generate an image from an owned prompt', () => {
  it('sends the chosen format and size and saves the zip under its file name', async () => {
    const calls = fakeApi({
      'GET /api/settings': settings,
      'POST /api/purchase/generate-image': () =>
        new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
          status: 200,
          headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="cold-email-1.zip"' },
        }),
    });
    URL.createObjectURL = vi.fn(() => 'blob:zip');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderWithApp(<GenerateImage promptId={5} title="Cold Email" />);
    fireEvent.click(await screen.findByText('Generate an image'));
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Size'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(saved).toEqual(['cold-email-1.zip']));
    expect(calls.find((c) => c.path === '/api/purchase/generate-image')!.body).toMatchObject({ prompt_id: 5, format: 2, size: 2 });
    expect(await screen.findByText('Your image is ready: the zip is downloaded.')).toBeTruthy();
  });

  it('shows the server’s message, or the SPEC fallback', async () => {
    fakeApi({
      'GET /api/settings': settings,
      'POST /api/purchase/generate-image': () => jsonAnswer(500, { status: 'ERROR' }),
    });
    renderWithApp(<GenerateImage promptId={5} title="Cold Email" />);
    fireEvent.click(await screen.findByText('Generate an image'));
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect((await screen.findAllByText('An error occurred during image generation')).length).toBeGreaterThan(0);
  });
});
