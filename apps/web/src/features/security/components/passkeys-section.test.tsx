import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { PasskeysSection } from './passkeys-section';

const browser = vi.hoisted(() => ({ supported: true, startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthn: () => browser.supported,
  startRegistration: browser.startRegistration,
}));

afterEach(() => {
  vi.unstubAllGlobals();
  browser.supported = true;
  browser.startRegistration.mockReset();
});

const laptop = { id: 7, name: 'Work laptop', created_at: '2026-03-01T10:00:00.000Z', last_used_at: null };
const phone = { id: 8, name: 'Phone', created_at: '2026-03-02T10:00:00.000Z', last_used_at: '2026-03-05T09:30:00.000Z' };
const answerFromBrowser = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'AA', attestationObject: 'AA' },
  clientExtensionResults: {},
};

describe('the passkeys section of the Security tab (issue 21)', () => {
  it('lists each passkey with its name, when it was added and when it was last used', async () => {
    fakeApi({ 'GET /api/user/passkeys': () => okAnswer([laptop, phone]) });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    const rows = await screen.findAllByTestId('passkey-row');
    expect(rows.map((r) => within(r).getByText(/./, { selector: 'strong' }).textContent)).toEqual(['Work laptop', 'Phone']);
    expect(rows[0]!.textContent).toMatch(/Added \d\d\.03\.2026 \d\d:\d\d · never used yet/);
    expect(rows[1]!.textContent).toMatch(/last used 05\.03\.2026 \d\d:\d\d/);
  });

  it('adds a passkey with the given name: the options go to the browser, and its answer to the server', async () => {
    let stored: unknown[] = [];
    browser.startRegistration.mockResolvedValue(answerFromBrowser);
    const calls = fakeApi({
      'GET /api/user/passkeys': () => okAnswer(stored),
      'POST /api/user/passkeys/options': () => okAnswer({ challenge: 'abc', rp: { id: 'localhost', name: 'Atelier' } }),
      'POST /api/user/passkeys': ({ body }) => {
        const added = { ...laptop, name: (body as { name: string }).name };
        stored = [added];
        return jsonAnswer(200, { status: 'OK', message: 'Your passkey has been added.', payload: added });
      },
    });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    expect(await screen.findByText('You have no passkeys yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Name of the new passkey'), { target: { value: 'My phone' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('My phone', { selector: 'strong' })).toBeTruthy();
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'abc', rp: { id: 'localhost', name: 'Atelier' } } });
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/user/passkeys')?.body).toEqual({ response: answerFromBrowser, name: 'My phone' });
    expect(await screen.findByText('Your passkey has been added.')).toBeTruthy();
  });

  it('asks for a name before asking the browser', async () => {
    fakeApi({ 'GET /api/user/passkeys': () => okAnswer([]) });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('The passkey name field is required.')).toBeTruthy();
    expect(browser.startRegistration).not.toHaveBeenCalled();
  });

  it('says so when the user cancels the browser dialog, and shows the server refusing an answer', async () => {
    browser.startRegistration.mockRejectedValueOnce(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    fakeApi({
      'GET /api/user/passkeys': () => okAnswer([]),
      'POST /api/user/passkeys/options': () => okAnswer({ challenge: 'abc' }),
      'POST /api/user/passkeys': () =>
        jsonAnswer(422, {
          status: 'ERROR',
          message: 'The given data was invalid.',
          errors: { response: ['This passkey could not be verified. Please try again.'] },
        }),
    });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    fireEvent.change(await screen.findByLabelText('Name of the new passkey'), { target: { value: 'Key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('The passkey request was cancelled or timed out. Please try again.')).toBeTruthy();
    browser.startRegistration.mockResolvedValueOnce(answerFromBrowser);
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('This passkey could not be verified. Please try again.')).toBeTruthy();
  });

  it('renames a passkey', async () => {
    let stored = [laptop];
    const calls = fakeApi({
      'GET /api/user/passkeys': () => okAnswer(stored),
      'PATCH /api/user/passkeys/7': ({ body }) => {
        stored = [{ ...laptop, name: (body as { name: string }).name }];
        return okAnswer(stored[0]);
      },
    });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename Work laptop' }));
    fireEvent.change(screen.getByLabelText('New name'), { target: { value: 'Old laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Old laptop', { selector: 'strong' })).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Old laptop' });
  });

  it('removes a passkey after asking', async () => {
    let stored = [laptop, phone];
    const calls = fakeApi({
      'GET /api/user/passkeys': () => okAnswer(stored),
      'DELETE /api/user/passkeys/8': () => {
        stored = [laptop];
        return jsonAnswer(200, { status: 'OK', message: 'The passkey has been removed.' });
      },
    });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Phone' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(screen.getByText('Remove Phone? You can no longer sign in with it.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getAllByTestId('passkey-row')).toHaveLength(1));
    expect(screen.queryByText('Phone', { selector: 'strong' })).toBeNull();
  });

  it('tells a browser without passkeys that it cannot add one', async () => {
    browser.supported = false;
    fakeApi({ 'GET /api/user/passkeys': () => okAnswer([]) });
    renderWithApp(<PasskeysSection />, { path: '/dashboard/security' });
    expect(await screen.findByText('This browser cannot create passkeys. Open this page in a current browser to add one.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
