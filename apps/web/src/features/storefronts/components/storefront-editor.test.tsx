import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { StorefrontEditor } from './storefront-editor';

afterEach(() => vi.unstubAllGlobals());

const works = [
  { id: 1, title: 'Fox at dawn', product_type: 'prompt', image_url: null },
  { id: 2, title: 'Quiet harbour', product_type: 'image', image_url: '/storage/products/quiet/preview.webp' },
  { id: 3, title: 'Neon alley', product_type: 'image', image_url: null },
];
const saved = (over: Record<string, unknown> = {}) => ({ headline: 'Old headline', banner_url: null, links: [], featured_ids: [1], works, ...over });

describe('the Storefront tab', () => {
  it('edits headline, links and featured works in order; the contract refuses http before sending, the server’s 422 lands under its work', async () => {
    const calls = fakeApi({
      'GET /api/seller/storefront': () => okAnswer(saved()),
      'PUT /api/seller/storefront': ({ body }) => {
        const input = body as { featured_ids: number[] };
        if (input.featured_ids.includes(3))
          return jsonAnswer(422, {
            status: 'ERROR',
            message: 'Invalid data.',
            errors: { [`featured_ids.${input.featured_ids.indexOf(3)}`]: ['Only your own listed works can be featured.'] },
          });
        return okAnswer(saved(body as Record<string, unknown>), { message: 'Your storefront was saved.' });
      },
    });
    renderWithApp(<StorefrontEditor />);
    const headline = await screen.findByLabelText('Headline');
    expect((headline as HTMLInputElement).value).toBe('Old headline');
    expect(within(screen.getByTestId('featured-list')).getByText('Fox at dawn')).toBeTruthy();
    expect(screen.getByTestId('featured-count').textContent).toBe('1 of 6 featured');

    fireEvent.change(headline, { target: { value: 'Prompts for quiet mornings' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a link' }));
    fireEvent.change(screen.getByLabelText('Label (optional)'), { target: { value: 'Portfolio' } });
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'http://portfolio.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save storefront' }));
    expect(await screen.findByText('Please enter a full https:// address, such as https://example.com.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'https://portfolio.example' } });

    // Feature two more works, put "Quiet harbour" first.
    fireEvent.click(screen.getByRole('button', { name: 'Feature: Quiet harbour' }));
    fireEvent.click(screen.getByRole('button', { name: 'Feature: Neon alley' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move Quiet harbour up' }));
    expect(screen.getByTestId('featured-count').textContent).toBe('3 of 6 featured');
    const order = () =>
      within(screen.getByTestId('featured-list'))
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.storefront-work-title')?.textContent);
    expect(order()).toEqual(['Quiet harbour', 'Fox at dawn', 'Neon alley']);

    // The server refuses "Neon alley" (say it was unlisted meanwhile): the message sits under that work.
    fireEvent.click(screen.getByRole('button', { name: 'Save storefront' }));
    const refused = await screen.findByText('Only your own listed works can be featured.');
    expect(refused.closest('li')?.textContent).toContain('Neon alley');

    fireEvent.click(screen.getByRole('button', { name: 'Remove Neon alley' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save storefront' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      headline: 'Prompts for quiet mornings',
      links: [{ label: 'Portfolio', url: 'https://portfolio.example' }],
      featured_ids: [2, 1],
    });
    expect(await screen.findByText('Your storefront was saved.')).toBeTruthy();
  });

  it('refuses a 6th link and a 7th featured work in the form itself', async () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, title: `Work ${i + 1}`, product_type: 'prompt', image_url: null }));
    fakeApi({ 'GET /api/seller/storefront': () => okAnswer(saved({ works: many, featured_ids: [1, 2, 3, 4, 5, 6] })) });
    renderWithApp(<StorefrontEditor />);
    await screen.findByLabelText('Headline');
    expect((screen.getByRole('button', { name: 'Feature: Work 7' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Six works are featured: remove one to feature another.')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add a link' }) as HTMLButtonElement;
    for (let i = 0; i < 5; i++) fireEvent.click(add);
    await waitFor(() => expect(screen.getAllByTestId('storefront-link')).toHaveLength(5));
    expect(add.disabled).toBe(true);
  });

  it('checks a banner before uploading it, uploads one and shows it', async () => {
    const calls = fakeApi({
      'GET /api/seller/storefront': () => okAnswer(saved()),
      'POST /api/seller/storefront/banner': () => okAnswer(saved({ banner_url: '/storage/banners/7/abc.webp' }), { message: 'The banner was uploaded.' }),
    });
    renderWithApp(<StorefrontEditor />);
    const input = (await screen.findByLabelText('Upload a banner')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['#!/bin/sh'], 'evil.sh', { type: 'text/x-sh' })] } });
    expect(await screen.findByText('Please select an image file.')).toBeTruthy();
    const huge = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [huge] } });
    expect(await screen.findByText('The banner may be at most 5 MB.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(10)], 'wide.png', { type: 'image/png' })] } });
    const preview = (await screen.findByTestId('storefront-banner-preview')) as HTMLImageElement;
    expect(preview.getAttribute('src')).toBe('/storage/banners/7/abc.webp');
    expect(screen.getByRole('button', { name: 'Remove banner' })).toBeTruthy();
  });
});
