import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { renderWithApp } from '../../../test/render';
import { NotificationPreferencesPanel } from './notification-preferences';

afterEach(() => vi.unstubAllGlobals());

describe('notification preferences (issue 31)', () => {
  it('shows each kind with a bell and an e-mail box, and saves the one turned off', async () => {
    let saved = [
      { kind: 'sale_made', bell: true, email: true },
      { kind: 'refund_requested', bell: true, email: true },
      { kind: 'refund_status', bell: true, email: true },
    ];
    const calls = fakeApi({
      'GET /api/user/notification-preferences': () => okAnswer({ preferences: saved }),
      'PUT /api/user/notification-preferences': ({ body }) => {
        const change = (body as { preferences: typeof saved }).preferences[0]!;
        saved = saved.map((p) => (p.kind === change.kind ? change : p));
        return okAnswer({ preferences: saved });
      },
    });
    renderWithApp(<NotificationPreferencesPanel />);
    expect(await screen.findByRole('heading', { name: 'What you are told' })).toBeTruthy();
    const saleMail = (await screen.findByRole('checkbox', { name: 'E-mail for “A sale of my work”' })) as HTMLInputElement;
    expect(saleMail.checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Bell for “A refund request for my work”' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(saleMail);
    expect(await screen.findByText('Your notification preferences are saved.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ preferences: [{ kind: 'sale_made', bell: true, email: false }] });
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'E-mail for “A sale of my work”' }) as HTMLInputElement).checked).toBe(false));
    expect((screen.getByRole('checkbox', { name: 'Bell for “A sale of my work”' }) as HTMLInputElement).checked).toBe(true);
  });
});
