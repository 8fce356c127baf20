import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { authKey } from '../../features/auth';
import { siteKeys } from '../../features/site';
import { i18n } from '../../lib/i18n';
import { I18nextProvider } from '../../lib/i18n-runtime';
import { Sidebar } from './sidebar';

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <Sidebar open={open} onClose={() => setOpen(false)} />
      <Where />
    </>
  );
}

function renderSidebar(auth: unknown = { authenticated: false, user: null }) {
  const client = new QueryClient();
  client.setQueryData(authKey, auth);
  client.setQueryData(siteKeys.currencies, [
    { code: 'EUR', symbol: '€', value: 1, default: true, name: 'EUR' },
    { code: 'USD', symbol: '$', value: 1.08, default: false, name: 'USD' },
  ]);
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/']}>
          <Harness />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(cleanup);

describe('sidebar menu', () => {
  it('closes on Esc and on a backdrop click', () => {
    renderSidebar();
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByText('open'));
    fireEvent.click(screen.getByTestId('sidebar-backdrop'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('issue 18: offers the language switcher, which the header hides on a phone', () => {
    renderSidebar();
    const select = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['English', 'Deutsch']);
  });

  it('searches with the trimmed text, ignores an empty one, clears the box and closes on the route change', () => {
    renderSidebar();
    const box = screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement;
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.submit(box.closest('form')!);
    expect(screen.getByTestId('where').textContent).toBe('/');
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.change(box, { target: { value: '  neon city ' } });
    fireEvent.submit(box.closest('form')!);
    expect(screen.getByTestId('where').textContent).toBe('/products?search=neon%20city');
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByText('open'));
    expect((screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement).value).toBe('');
  });

  it('shows Log In and Sign Up to guests, the e-mail and Log Out to a signed-in user', () => {
    const guest = renderSidebar();
    expect(screen.getByRole('link', { name: 'Log In' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign Up' })).toBeTruthy();
    guest.unmount();
    renderSidebar({ authenticated: true, user: { email: 'buyer@example.com' } });
    expect(screen.getByText('buyer@example.com')).toBeTruthy();
    expect(screen.getByText('Welcome,')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Log Out' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Log In' })).toBeNull();
  });
});
