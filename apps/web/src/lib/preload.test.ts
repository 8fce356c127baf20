import { PRELOAD_ELEMENT_ID, PRELOAD_MAX_AGE_MS, toScriptJson } from '@atelier/shared/preload';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from './api-client';
import { writeCookie } from './cookies';
import { resetPreloadForTests } from './preload';

function putPreload(answers: Record<string, { status: number; body: unknown; currency: string | null }>) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = PRELOAD_ELEMENT_ID;
  el.textContent = toScriptJson(answers);
  document.body.appendChild(el);
}

const fetchMock = vi.fn(async () => new Response(JSON.stringify({ status: 'OK', payload: 'from the network' }), { status: 200 }));

beforeEach(() => {
  resetPreloadForTests();
  localStorage.clear();
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  document.getElementById(PRELOAD_ELEMENT_ID)?.remove();
});

describe('answers the server put into the page', () => {
  it('answers the first matching call without the network, once', async () => {
    putPreload({ '/api/products/catalog?limit=6&page=1&sort=id%7Edesc': { status: 200, body: { status: 'OK', payload: ['preloaded'] }, currency: 'EUR' } });
    // The parameters in another order and the price call's currency still match.
    const first = await api('/api/products/catalog', { query: { sort: 'id~desc', page: 1, limit: 6 }, currency: 'EUR' });
    expect(first).toEqual(['preloaded']);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(document.getElementById(PRELOAD_ELEMENT_ID)).toBeNull();
    const second = await api('/api/products/catalog', { query: { sort: 'id~desc', page: 1, limit: 6 }, currency: 'EUR' });
    expect(second).toBe('from the network');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('asks the network when the prices are in another currency', async () => {
    putPreload({ '/api/products/random': { status: 200, body: { status: 'OK', payload: ['in EUR'] }, currency: 'EUR' } });
    expect(await api('/api/products/random', { currency: 'USD' })).toBe('from the network');
  });

  it('turns a preloaded error into the same ApiError the network would give', async () => {
    putPreload({ '/api/products/gone/info': { status: 404, body: { status: 'ERROR', message: 'This product does not exist.' }, currency: null } });
    await expect(api('/api/products/gone/info', { quiet: true })).rejects.toMatchObject({ status: 404, message: 'This product does not exist.' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stops using answers some seconds after start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    putPreload({
      '/api/settings': { status: 200, body: { status: 'OK', payload: 'old' }, currency: null },
      '/api/is-auth': { status: 200, body: { status: 'OK' }, currency: null },
    });
    await api('/api/is-auth');
    vi.setSystemTime(Date.now() + PRELOAD_MAX_AGE_MS + 1);
    expect(await api('/api/settings')).toBe('from the network');
  });

  it('never answers a call that changes something', async () => {
    putPreload({ '/api/contact': { status: 200, body: { status: 'OK', payload: 'preloaded' }, currency: null } });
    writeCookie('XSRF-TOKEN', 't');
    expect(await api('/api/contact', { method: 'POST', body: {} })).toBe('from the network');
  });
});
