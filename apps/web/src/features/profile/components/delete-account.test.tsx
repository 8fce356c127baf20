import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { DeleteAccount } from './delete-account';

afterEach(() => vi.unstubAllGlobals());

describe('Delete account', () => {
  it('issue 30: a refusal because money remains shows every sentence the server gave, in the dialog', async () => {
    const pending =
      '€16.00 of your earnings are still in the clearing period. Once they are available, withdraw them from the Earnings tab; then delete your account.';
    const refund = 'Your refund request for "Heron at dusk" is still open. Once it is decided, delete your account.';
    const calls = fakeApi({
      'DELETE /api/user/delete': () =>
        jsonAnswer(422, { status: 'ERROR', message: `${pending} ${refund}`, errors: { earnings_pending: [pending], refund_request: [refund] } }),
    });
    renderWithApp(<DeleteAccount />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Password'), { target: { value: 'violet-harbour-42' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(`${pending} ${refund}`)).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')!.body).toEqual({ password: 'violet-harbour-42' });
  });
});
