import { fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { aProfile } from '../../../test/fixtures';
import { jsonAnswer, renderRouter } from '../../../test/render';
import { chatOf } from './chat-test-data';
import { ContactCreatorButton } from './contact-creator-button';

afterEach(() => vi.unstubAllGlobals());

function renderOnProductPage(authorNickname = 'sofia') {
  const router = createMemoryRouter(
    [
      { path: '/products/:slug', element: <ContactCreatorButton target={{ product_id: 30 }} authorNickname={authorNickname} /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/products/harbour-at-dusk'] },
  );
  return renderRouter(router);
}

describe('Contact the creator', () => {
  it('opens the chat about the product and goes to the Chat tab with it selected', async () => {
    const calls = fakeApi({
      'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
      'GET /api/user/profile': () => okAnswer(aProfile()),
      'POST /api/chat': () => okAnswer(chatOf({ id: 12 })),
    });
    const { router } = renderOnProductPage();
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/user/profile')).toBe(true));
    const button = (await screen.findByRole('button', { name: 'Contact the creator' })) as HTMLButtonElement;
    await vi.waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    await vi.waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/dashboard/chat?chat=12'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ product_id: 30 });
  });

  it('sends a guest to sign in, with the way back', async () => {
    const calls = fakeApi({ 'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: false } }) });
    const { router } = renderOnProductPage();
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/is-auth')).toBe(true));
    const button = (await screen.findByRole('button', { name: 'Contact the creator' })) as HTMLButtonElement;
    await vi.waitFor(() => expect(button.disabled).toBe(false));
    fireEvent.click(button);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fproducts%2Fharbour-at-dusk');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('issue 18 bug 11: is not offered on one’s own work or profile', async () => {
    const calls = fakeApi({
      'GET /api/is-auth': () => jsonAnswer(200, { status: 'OK', payload: { authenticated: true } }),
      'GET /api/user/profile': () => okAnswer(aProfile()),
    });
    renderOnProductPage('ines');
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/user/profile')).toBe(true));
    // Signed in as the author: the button is gone once the page knows who is looking.
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Contact the creator' })).toBeNull());
    const profile = createMemoryRouter([{ path: '*', element: <ContactCreatorButton target={{ recipient_id: 3 }} /> }]);
    renderRouter(profile);
    await vi.waitFor(() => expect(calls.filter((c) => c.path === '/api/user/profile').length).toBe(2));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Contact the creator' })).toBeNull());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
