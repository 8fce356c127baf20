import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
});
