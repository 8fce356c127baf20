import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { PaymentWidget, widgetOutcome } from './payment-widget';

afterEach(() => vi.useRealTimers());

describe('payment widget', () => {
  it('shows a spinner, then an error when nothing rendered within 7 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWithApp(<PaymentWidget data={{ checkout_url: '/never-loads.js', checkout: 'tok', public_key: 'pk', payment_type: 'widget' }} />);
    expect(screen.getByRole('status', { name: 'Loading the payment form...' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(7000));
    expect(screen.getByRole('alert').textContent).toBe('Widget failed to load. Please try again.');
  });

  it('maps a widget outcome to the SPEC §4 notice', () => {
    expect(widgetOutcome('successful')).toEqual({ kind: 'success', key: 'payment.succeeded' });
    expect(widgetOutcome('pending').kind).toBe('success');
    for (const s of ['failed', 'error', 'declined']) expect(widgetOutcome(s)).toEqual({ kind: 'error', key: 'payment.failed' });
    expect(widgetOutcome('closed')).toEqual({ kind: 'error', key: 'payment.cancelled' });
  });
});
