import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { HeaderBalance } from './header-balance';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the balance in the header', () => {
  it('shows the balance labelled with the internal currency’s name and opens Add Funds', async () => {
    fakeApi({ 'GET /api/balance': () => okAnswer({ amount: 12.5, currency: 'EUR', currencySymbol: '€', amount_minor: 1250 }) });
    renderWithApp(<HeaderBalance />, { path: '/' });
    const link = await screen.findByTestId('header-balance');
    // Issue 31: the accessible name is the visible text, no aria-label that says something else.
    expect(link.getAttribute('aria-label')).toBeNull();
    expect(screen.getByRole('link', { name: 'Atelier Credits €12.50' })).toBe(link);
    expect(link.getAttribute('href')).toBe('/deposit/create');
    expect(link.textContent).toContain('€12.50');
  });
});
