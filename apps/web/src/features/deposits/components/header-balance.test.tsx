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
    expect(link.getAttribute('aria-label')).toBe('Atelier Credits balance: €12.50');
    expect(link.getAttribute('href')).toBe('/deposit/create');
    expect(link.textContent).toContain('€12.50');
  });
});
