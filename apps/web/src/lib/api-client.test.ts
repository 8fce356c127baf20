import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api-client';

function answer(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('api client', () => {
  it('unwraps the OK envelope', async () => {
    vi.stubGlobal('fetch', async () => answer(200, { status: 'OK', payload: { a: 1 } }));
    await expect(api('/api/x')).resolves.toEqual({ a: 1 });
  });

  it('raises the server message and field errors of a 422', async () => {
    vi.stubGlobal('fetch', async () => answer(422, { status: 'ERROR', message: 'Please enter your name.', errors: { name: ['Please enter your name.'] } }));
    const err = (await api('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Please enter your name.');
    expect(err.status).toBe(422);
    expect(err.field('name')).toBe('Please enter your name.');
  });

  it('treats a 200 whose status is not OK as an error', async () => {
    vi.stubGlobal('fetch', async () => answer(200, { status: 'ERROR', message: 'Out of stock' }));
    await expect(api('/api/x')).rejects.toThrow('Out of stock');
  });

  it('says so when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api('/api/x')).rejects.toThrow('Could not connect to the server. Please try again later.');
  });

  it('sends the display currency as X-Currency and a `currency` parameter only on a call that asks for prices', async () => {
    localStorage.setItem('selectedCurrency', 'USD');
    const seen: { url: string; headers: Record<string, string> }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push({ url, headers: init.headers as Record<string, string> });
      return answer(200, { status: 'OK', payload: [] });
    });
    await api('/api/products/catalog', { query: { page: 2 }, currency: 'USD' });
    await api('/api/settings');
    expect(seen[0]?.url).toBe('/api/products/catalog?page=2&currency=USD');
    expect(seen[0]?.headers['X-Currency']).toBe('USD');
    expect(seen[0]?.headers['X-Frontend-Language']).toBe('en');
    // A call without prices says nothing about the currency, whatever the visitor selected.
    expect(seen[1]?.url).toBe('/api/settings');
    expect(seen[1]?.headers['X-Currency']).toBeUndefined();
    expect(seen[1]?.headers['X-Frontend-Language']).toBe('en');
  });

  it('sends a state-changing body exactly as given: no currency is added to it', async () => {
    localStorage.setItem('selectedCurrency', 'USD');
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const sent: { body: RequestInit['body']; headers: Record<string, string> }[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push({ body: init.body, headers: init.headers as Record<string, string> });
      return answer(200, { status: 'OK', payload: null });
    });
    await api('/api/login', { method: 'POST', body: { username: 'a@b.c', password: 'p' } });
    await api('/api/email/verify/resend', { method: 'POST' });
    const form = new FormData();
    form.append('avatar', 'x');
    await api('/api/user/avatar', { method: 'POST', body: form });
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ username: 'a@b.c', password: 'p' });
    expect(sent[0]?.headers['X-Currency']).toBeUndefined();
    expect(sent[1]?.body).toBeUndefined();
    expect([...(sent[2]!.body as FormData).keys()]).toEqual(['avatar']);
  });

  it('sends the currency header on a state-changing call that asks for prices, still not in its body', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
    document.cookie = 'XSRF-TOKEN=t; path=/';
    let sent: { url: string; body: RequestInit['body']; headers: Record<string, string> } | undefined;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent = { url, body: init.body, headers: init.headers as Record<string, string> };
      return answer(200, { status: 'OK', payload: null });
    });
    await api('/api/cart/add', { method: 'POST', body: { product_id: 1 }, currency: 'GBP' });
    expect(sent?.url).toBe('/api/cart/add');
    expect(sent?.headers['X-Currency']).toBe('GBP');
    expect(JSON.parse(String(sent?.body))).toEqual({ product_id: 1 });
  });

  it('echoes the XSRF-TOKEN cookie on state-changing calls', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
    document.cookie = 'XSRF-TOKEN=abc%2B1; path=/';
    let sent: Record<string, string> = {};
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent = init.headers as Record<string, string>;
      return answer(200, { status: 'OK', payload: null });
    });
    await api('/api/contact', { method: 'POST', body: { name: 'A' } });
    expect(sent['X-XSRF-TOKEN']).toBe('abc+1');
  });
});
