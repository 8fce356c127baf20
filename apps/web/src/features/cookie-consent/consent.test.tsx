import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { I18nextProvider } from '../../lib/i18n-runtime';
import { siteKeys } from '../site';
import { consentExpiry, injectAnalyticsTag, readConsent } from './consent';
import { CookieConsent, openCookieSettings } from './cookie-consent';

afterEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: test cleanup.
  document.cookie = 'cookie_consent=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  document.head.innerHTML = '';
});

function renderPanel(googleTag = '') {
  const client = new QueryClient();
  client.setQueryData(siteKeys.settings, { google_tag: googleTag });
  client.setQueryData(siteKeys.staticPages, [{ id: 3, slug: 'cookies', title: 'Cookie policy', is_terms: 0, is_privacy: 0, is_cookie: 1 }]);
  return render(
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <CookieConsent />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

describe('cookie consent', () => {
  it('lives 1 year, 1 month and 1 day', () => {
    expect(consentExpiry(new Date(2026, 0, 15)).toDateString()).toBe(new Date(2027, 1, 16).toDateString());
  });

  it('stores "essential" and injects no analytics tag', () => {
    renderPanel('<script data-x="1"></script>');
    fireEvent.click(screen.getByRole('button', { name: 'Only essentials' }));
    expect(readConsent()).toBe('essential');
    expect(screen.queryByTestId('cookie-consent')).toBeNull();
    expect(document.head.querySelector('[data-atelier-analytics]')).toBeNull();
  });

  it('injects the analytics tag once, after "accept all"', () => {
    renderPanel('<meta name="analytics-probe" content="1">');
    expect(document.head.querySelector('[data-atelier-analytics]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Accept all' }));
    expect(readConsent()).toBe('all');
    expect(injectAnalyticsTag('<meta name="analytics-probe" content="1">')).toBe(false);
    expect(document.head.querySelectorAll('[data-atelier-analytics]')).toHaveLength(1);
  });

  it('customize shows the always-on essentials and saves "custom"', () => {
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Customize' }));
    const box = screen.getByRole('checkbox', { name: /Essential cookies/ }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(readConsent()).toBe('custom');
  });

  it('issue 18: customize turns analytics on (saved as "all", the tag injected) or leaves it off', () => {
    renderPanel('<meta name="analytics-probe" content="1">');
    fireEvent.click(screen.getByRole('button', { name: 'Customize' }));
    const analytics = screen.getByRole('checkbox', { name: 'Analytics cookies' }) as HTMLInputElement;
    expect(analytics.checked).toBe(false);
    fireEvent.click(analytics);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(readConsent()).toBe('all');
    expect(document.head.querySelectorAll('[data-atelier-analytics]')).toHaveLength(1);
    expect(screen.queryByTestId('cookie-consent')).toBeNull();
  });

  it('issue 18: the footer reopens the settings with the current choice, and a new choice is saved', () => {
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Only essentials' }));
    expect(screen.queryByTestId('cookie-consent')).toBeNull();
    act(() => openCookieSettings());
    expect(screen.getByTestId('cookie-consent')).toBeTruthy();
    const analytics = screen.getByRole('checkbox', { name: 'Analytics cookies' }) as HTMLInputElement;
    expect(analytics.checked).toBe(false);
    fireEvent.click(analytics);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(readConsent()).toBe('all');
    expect(screen.queryByTestId('cookie-consent')).toBeNull();
    act(() => openCookieSettings());
    expect((screen.getByRole('checkbox', { name: 'Analytics cookies' }) as HTMLInputElement).checked).toBe(true);
  });
});
