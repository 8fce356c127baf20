import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../test/fake-api';
import { siteSettings } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { Component as Home } from './home';

afterEach(() => vi.unstubAllGlobals());

/** The home page against a server whose back office set the commission to `percent`. */
async function renderHome(percent: number) {
  fakeApi({
    'GET /api/settings': () => okAnswer(siteSettings({ commission_percent: percent })),
    'GET /api/products/random': () => okAnswer([]),
  });
  renderWithApp(<Home />);
}

describe('the home page copy (issue 18 conformance)', () => {
  it('issue 18 conformance: the home page states the commission from the settings', async () => {
    await renderHome(13);
    expect(await screen.findByText(/Atelier keeps a commission of 13% of each sale/)).toBeTruthy();
    expect(screen.queryByText(/Money goes directly to the author/)).toBeNull();
    expect(screen.queryByText(/Creators set the price/)).toBeNull();
  });

  it('issue 18 conformance: "Sell" says both ways: a listing under the creator\'s name, or Atelier buying the work outright', async () => {
    await renderHome(20);
    expect(screen.getByRole('heading', { name: 'What "Sell" means' })).toBeTruthy();
    expect(screen.getByText(/List it under your name at your price.*you earn your share of every sale.*Atelier buys the work outright/)).toBeTruthy();
    expect(screen.queryByText(/not available yet/)).toBeNull();
  });
});
