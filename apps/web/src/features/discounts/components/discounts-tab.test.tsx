import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, okAnswer } from '../../../test/fake-api';
import { jsonAnswer, renderWithApp } from '../../../test/render';
import { DiscountsTab } from './discounts-tab';

afterEach(() => vi.unstubAllGlobals());

const aDiscount = (over: Record<string, unknown> = {}) => ({
  id: 1,
  code: 'SPRING-20',
  kind: 'percent',
  value: 20,
  product_ids: [],
  starts_at: null,
  ends_at: null,
  max_uses: 10,
  uses: 3,
  automatic: false,
  paused: false,
  state: 'active',
  platform: false,
  created_at: '2026-12-01T10:00:00.000Z',
  ...over,
});

describe('the Discounts tab', () => {
  it('lists codes with their uses, pauses one, and creates a 20 % code; a server 422 lands under its field', async () => {
    let created = false;
    const calls = fakeApi({
      'GET /api/seller/discounts': () => okAnswer({ discounts: created ? [aDiscount({ id: 2, code: 'NEW-CODE', uses: 0 }), aDiscount()] : [aDiscount()] }),
      'PATCH /api/seller/discounts/1': () => okAnswer({ discount: aDiscount({ paused: true, state: 'paused' }) }),
      'POST /api/seller/discounts': ({ body }) => {
        if ((body as { code: string }).code === 'TAKEN') {
          return jsonAnswer(422, {
            status: 'ERROR',
            message: 'Invalid data.',
            errors: { code: ['You already have a code TAKEN. Codes are unique, whatever their case.'] },
          });
        }
        created = true;
        return okAnswer({ discount: aDiscount({ id: 2, code: 'NEW-CODE', uses: 0 }) });
      },
    });
    renderWithApp(<DiscountsTab />);
    const row = await screen.findByTestId('discount-SPRING-20');
    expect(row.textContent).toContain('20 % off');
    expect(row.textContent).toContain('3 of 10 uses');
    expect(row.textContent).toContain('All works');

    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ paused: true }));

    fireEvent.click(screen.getByRole('button', { name: 'New discount' }));
    const dialog = await screen.findByTestId('discount-dialog');
    // The contract's rules answer before anything is sent: more than 90 %.
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'taken' } });
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '95' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('A percent discount is 1 to 90 %.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('You already have a code TAKEN. Codes are unique, whatever their case.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'new-code' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toMatchObject({
      code: 'NEW-CODE',
      kind: 'percent',
      value: 20,
      product_ids: [],
      automatic: false,
    });
    expect(await screen.findByTestId('discount-NEW-CODE')).toBeTruthy();
  });
});

describe('the back office Discounts section', () => {
  it('lists and makes platform codes through the admin API', async () => {
    const calls = fakeApi({
      'GET /api/admin/discounts': () => okAnswer({ discounts: [aDiscount({ code: 'HOUSE-30', value: 30, platform: true })] }),
      'POST /api/admin/discounts': () => okAnswer({ discount: aDiscount({ id: 3, code: 'HOUSE-10', value: 10, platform: true }) }),
    });
    renderWithApp(<DiscountsTab scope="platform" />);
    expect((await screen.findByTestId('discount-HOUSE-30')).textContent).toContain('30 % off');
    expect(screen.getByText('Platform codes and sales for platform-owned works. Changes are audited.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New discount' }));
    await screen.findByTestId('discount-dialog');
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'house-10' } });
    fireEvent.change(screen.getByLabelText('Value'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/api/admin/discounts')?.body).toMatchObject({ code: 'HOUSE-10', value: 10 }),
    );
    expect(calls.some((c) => c.path.startsWith('/api/seller/'))).toBe(false);
  });
});
