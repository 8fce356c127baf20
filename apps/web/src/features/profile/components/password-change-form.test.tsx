import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { PasswordChangeForm } from './password-change-form';

afterEach(() => vi.unstubAllGlobals());

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Change password' }));

describe('password change form', () => {
  it('shows the SPEC §5 rules in their order (with the one 8-character rule of every new password)', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<PasswordChangeForm />);
    submit();
    expect((await screen.findAllByText('Please fill in all password fields')).length).toBeGreaterThan(0);
    fill('Current password', 'old-one');
    fill('New password', 'abcd');
    fill('Repeat new password', 'abce');
    submit();
    expect((await screen.findAllByText('New passwords do not match')).length).toBeGreaterThan(0);
    fill('Repeat new password', 'abcd');
    submit();
    expect((await screen.findAllByText('The password must be at least 8 characters long.')).length).toBeGreaterThan(0);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('puts the server’s field message under the field', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the test plays the server setting the cookie.
    document.cookie = 'XSRF-TOKEN=t; path=/';
    vi.stubGlobal('fetch', async () =>
      jsonAnswer(422, { status: 'ERROR', message: 'The current password is incorrect.', errors: { cur_password: ['The current password is incorrect.'] } }),
    );
    renderWithApp(<PasswordChangeForm />);
    fill('Current password', 'wrong-one');
    fill('New password', 'brand-new-9');
    fill('Repeat new password', 'brand-new-9');
    submit();
    await waitFor(() => expect(screen.getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('The current password is incorrect.').length).toBeGreaterThanOrEqual(1);
  });

  it('issue 21: with 2FA on, a change that needs a fresh code opens the step-up dialog and goes through after it', async () => {
    let fresh = false;
    const calls = fakeApi({
      'POST /api/user/change-password': () =>
        fresh
          ? jsonAnswer(200, { status: 'OK', message: 'Password changed successfully!' })
          : jsonAnswer(403, { status: 'ERROR', message: 'Please confirm it is you.', errors: { step_up: ['Please confirm it is you.'] } }),
      'POST /api/user/step-up': () => {
        fresh = true;
        return jsonAnswer(200, { status: 'OK', message: 'Thank you. You can go on.' });
      },
    });
    renderWithApp(<PasswordChangeForm />);
    fill('Current password', 'violet-harbour-42');
    fill('New password', 'brand-new-9');
    fill('Repeat new password', 'brand-new-9');
    submit();
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use a recovery code instead' }));
    fireEvent.change(within(dialog).getByLabelText('Recovery code'), { target: { value: 'abcde-12345' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Password changed successfully!')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/user/step-up')?.body).toEqual({ recovery_code: 'abcde-12345' });
    expect(calls.filter((c) => c.path === '/api/user/change-password')).toHaveLength(2);
    // The forbidden page is not where a step-up request leads.
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
