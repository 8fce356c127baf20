import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiEnvelope } from '../../../lib/api-client';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { passkeyAssertion } from '../testing/passkey-answers';
import { useStepUp } from './step-up-dialog';

const browser = vi.hoisted(() => ({ startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication: browser.startAuthentication }));

afterEach(() => {
  vi.unstubAllGlobals();
  browser.startAuthentication.mockReset();
});

/** A sensitive change behind the step-up, as the password form and the withdrawal use it. */
function ChangeSomething() {
  const { run, dialog } = useStepUp();
  const [done, setDone] = useState('');
  return (
    <>
      <button
        type="button"
        onClick={() =>
          run(() => apiEnvelope<{ status: 'OK'; message: string }>('/api/user/change-password', { method: 'POST', body: {} })).then((r) => setDone(r.message))
        }
      >
        Change
      </button>
      {done && <p>{done}</p>}
      {dialog}
    </>
  );
}

const stepUpRefusal = () =>
  jsonAnswer(403, {
    status: 'ERROR',
    message: 'Please confirm it is you with your passkey.',
    errors: { step_up: ['Please confirm it is you with your passkey.'] },
  });

describe('the step-up dialog with a passkey (issue 21)', () => {
  it('a user whose second factor is a passkey confirms with it, and the change goes through', async () => {
    let fresh = false;
    const calls = fakeApi({
      'GET /api/user/security': () => okAnswer({ totp_enabled: false, has_passkey: true, recovery_codes_left: 0, second_factor_fresh: fresh }),
      'POST /api/user/change-password': () => (fresh ? jsonAnswer(200, { status: 'OK', message: 'Your password has been changed.' }) : stepUpRefusal()),
      'POST /api/user/step-up/passkey/options': () => okAnswer({ challenge: 'c2lnbi1tZQ', allowCredentials: [{ id: 'cred', type: 'public-key' }] }),
      'POST /api/user/step-up/passkey': () => {
        fresh = true;
        return jsonAnswer(200, { status: 'OK', message: 'Thank you, you can go on.' });
      },
    });
    browser.startAuthentication.mockResolvedValue(passkeyAssertion);
    renderWithApp(<ChangeSomething />);
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // No authenticator app: no code field, only the passkey.
    await within(dialog).findByText('Confirm with the passkey on this device.');
    expect(within(dialog).queryByLabelText('Code from the app')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText('Your password has been changed.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: expect.objectContaining({ challenge: 'c2lnbi1tZQ' }) });
    expect(calls.find((c) => c.path === '/api/user/step-up/passkey')?.body).toEqual({ response: passkeyAssertion });
    expect(calls.filter((c) => c.path === '/api/user/change-password')).toHaveLength(2);
  });

  it('says why a passkey was refused and keeps the dialog open; with an app as well, the code field is offered too', async () => {
    fakeApi({
      'GET /api/user/security': () => okAnswer({ totp_enabled: true, has_passkey: true, recovery_codes_left: 10, second_factor_fresh: false }),
      'POST /api/user/change-password': stepUpRefusal,
      'POST /api/user/step-up/passkey/options': () => okAnswer({ challenge: 'c2lnbi1tZQ' }),
      'POST /api/user/step-up/passkey': () =>
        jsonAnswer(422, {
          status: 'ERROR',
          message: 'This passkey does not belong to your account.',
          errors: { response: ['This passkey does not belong to your account.'] },
        }),
    });
    browser.startAuthentication.mockResolvedValue(passkeyAssertion);
    renderWithApp(<ChangeSomething />);
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    await within(dialog).findByText('Or enter the code from your authenticator app.');
    expect(within(dialog).getByLabelText('Code from the app')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    expect(await within(dialog).findByText('This passkey does not belong to your account.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('dialog')).toBeTruthy());
  });
});
