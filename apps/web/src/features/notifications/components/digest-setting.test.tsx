import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { DigestSetting } from './digest-setting';

afterEach(() => vi.unstubAllGlobals());

describe('the weekly digest setting', () => {
  it('shows the saved setting and turns it off', async () => {
    const calls = fakeApi({
      'GET /api/notifications/settings': () => okAnswer({ weekly_digest: true }),
      'PUT /api/notifications/settings': ({ body }) => okAnswer(body),
    });
    renderWithApp(<DigestSetting />);
    const box = (await screen.findByRole('checkbox', { name: 'A weekly e-mail with the new works of creators I follow' })) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    expect(await screen.findByText('The weekly e-mail is off.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ weekly_digest: false });
    await waitFor(() => expect(box.checked).toBe(false));
  });
});
