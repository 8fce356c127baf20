import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { SecurityTab } from './security-tab';

afterEach(() => vi.unstubAllGlobals());

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h1v1H0z"/></svg>';
const sessions = [
  {
    id: 'a'.repeat(24),
    current: true,
    browser: 'Firefox',
    os: 'Linux',
    device: 'computer' as const,
    created_at: '2026-11-28T09:00:00Z',
    last_seen_at: '2026-11-28T09:30:00Z',
    ip_hint: '203.0.113.x',
    second_factor: true,
  },
  {
    id: 'b'.repeat(24),
    current: false,
    browser: 'Chrome',
    os: 'Windows',
    device: 'computer' as const,
    created_at: '2026-11-27T09:00:00Z',
    last_seen_at: '2026-11-27T10:00:00Z',
    ip_hint: '198.51.100.x',
    second_factor: false,
  },
];

describe('the Security tab (issue 21)', () => {
  it('issue 29: a stale session setting up 2FA is asked for its password first, then the set-up goes on', async () => {
    let proved = false;
    const calls = fakeApi({
      'GET /api/user/security': () => okAnswer({ totp_enabled: false, has_passkey: false, recovery_codes_left: 0, second_factor_fresh: false }),
      'GET /api/user/sessions': () => okAnswer(sessions),
      'GET /api/user/passkeys': () => okAnswer([]),
      'POST /api/user/2fa/setup': () =>
        proved
          ? okAnswer({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/Atelier:a?secret=JBSWY3DPEHPK3PXP', qr_svg: SVG })
          : jsonAnswer(403, {
              status: 'ERROR',
              message: 'Please confirm it is you: enter your password.',
              errors: { step_up: ['Please confirm it is you: enter your password.'] },
            }),
      'POST /api/user/step-up': ({ body }) => {
        if ((body as { password?: string }).password !== 'violet-harbour-42')
          return jsonAnswer(422, { status: 'ERROR', message: 'The password is incorrect.', errors: { password: ['The password is incorrect.'] } });
        proved = true;
        return jsonAnswer(200, { status: 'OK', message: 'Thank you. You can go on.' });
      },
    });
    renderWithApp(<SecurityTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    expect(within(dialog).getByText('Enter your password to confirm it is you.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'wrong-one-12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The password is incorrect.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'violet-harbour-42' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/user/2fa/setup')).toHaveLength(2);
  });

  it('issue 21: sets up 2FA with the server’s QR code as an image and the manual key, then shows the recovery codes once', async () => {
    let enabled = false;
    const codes = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
    const calls = fakeApi({
      'GET /api/user/security': () =>
        okAnswer({ totp_enabled: enabled, has_passkey: false, recovery_codes_left: enabled ? 10 : 0, second_factor_fresh: enabled }),
      'GET /api/user/sessions': () => okAnswer(sessions),
      'POST /api/user/2fa/setup': () =>
        okAnswer({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauth_url: 'otpauth://totp/Atelier:ana?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          qr_svg: SVG,
        }),
      'POST /api/user/2fa/enable': ({ body }) => {
        if ((body as { code: string }).code !== '123456')
          return jsonAnswer(422, { status: 'ERROR', message: 'This code is not correct.', errors: { code: ['This code is not correct.'] } });
        enabled = true;
        return okAnswer({ recovery_codes: codes });
      },
    });
    renderWithApp(<SecurityTab />);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    const qr = (await screen.findByAltText('QR code for your authenticator app')) as HTMLImageElement;
    // The SVG is an image's data URL: never markup in the page.
    expect(qr.src.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(qr.src)).toContain(SVG);
    expect(document.querySelector('.totp-setup svg')).toBeNull();
    expect(screen.getByTestId('totp-key').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');

    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('This code is not correct.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByTestId('recovery-codes');
    for (const c of codes) expect(within(list).getByText(c)).toBeTruthy();

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(screen.getByRole('button', { name: 'Copy codes' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${codes.join('\n')}\n`));
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('Two-factor sign-in is on. Recovery codes left: 10.')).toBeTruthy();
    expect(screen.queryByText(codes[0]!)).toBeNull();
    expect(calls.filter((c) => c.path === '/api/user/2fa/enable')).toHaveLength(2);
  });

  it('issue 21: lists where the account is signed in and signs another browser out', async () => {
    let list = sessions;
    const calls = fakeApi({
      'GET /api/user/security': () => okAnswer({ totp_enabled: false, has_passkey: false, recovery_codes_left: 0, second_factor_fresh: false }),
      'GET /api/user/sessions': () => okAnswer(list),
      [`DELETE /api/user/sessions/${'b'.repeat(24)}`]: () => {
        list = [sessions[0]!];
        return jsonAnswer(200, { status: 'OK', message: 'That browser is signed out.' });
      },
    });
    renderWithApp(<SecurityTab />);
    const items = await screen.findAllByTestId('session');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Computer · Firefox on Linux')).toBeTruthy();
    expect(within(items[0]!).getByText(/This browser/)).toBeTruthy();
    expect(within(items[0]!).queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(within(items[1]!).getByText('Computer · Chrome on Windows')).toBeTruthy();
    expect(within(items[1]!).getByText(/198\.51\.100\.x/)).toBeTruthy();
    // Issue 29: which sessions proved a second factor.
    expect(within(items[0]!).getByText(/second factor proved/)).toBeTruthy();
    expect(within(items[1]!).getByText(/password only/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeTruthy();

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByText('That browser is signed out.')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('session')).toHaveLength(1));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/api/user/sessions/${'b'.repeat(24)}`)).toBe(true);
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });

  it('issue 21: turning 2FA off asks for the step-up code when the server wants one, then goes through', async () => {
    let fresh = false;
    const calls = fakeApi({
      'GET /api/user/security': () => okAnswer({ totp_enabled: true, has_passkey: false, recovery_codes_left: 8, second_factor_fresh: fresh }),
      'GET /api/user/sessions': () => okAnswer([sessions[0]]),
      'POST /api/user/2fa/disable': () =>
        fresh
          ? jsonAnswer(200, { status: 'OK', message: 'Two-factor sign-in is off.' })
          : jsonAnswer(403, { status: 'ERROR', message: 'Please confirm it is you.', errors: { step_up: ['Please confirm it is you.'] } }),
      'POST /api/user/step-up': ({ body }) => {
        if ((body as { code?: string }).code !== '123456')
          return jsonAnswer(422, { status: 'ERROR', message: 'This code is not correct.', errors: { code: ['This code is not correct.'] } });
        fresh = true;
        return jsonAnswer(200, { status: 'OK', message: 'Thank you. You can go on.' });
      },
    });
    renderWithApp(<SecurityTab />);
    expect(await screen.findByText('Two-factor sign-in is on. Recovery codes left: 8.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'violet-harbour-42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.change(within(dialog).getByLabelText('Code from the app'), { target: { value: '111111' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('This code is not correct.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Two-factor sign-in is off.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/user/2fa/disable').map((c) => c.body)).toEqual([
      { password: 'violet-harbour-42' },
      { password: 'violet-harbour-42' },
    ]);
  });
});
