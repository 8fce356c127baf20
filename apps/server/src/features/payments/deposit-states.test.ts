import { describe, expect, it } from 'vitest';
import { nextDepositStatus } from './deposit-states';

describe('deposit transitions', () => {
  it('a processing deposit succeeds, fails or expires', () => {
    expect(nextDepositStatus('processing', 'succeeded')).toBe('success');
    expect(nextDepositStatus('processing', 'failed')).toBe('failed');
    expect(nextDepositStatus('processing', 'expired')).toBe('failed');
  });
  it('a late success after a failure is still credited; nothing leaves success', () => {
    expect(nextDepositStatus('failed', 'succeeded')).toBe('success');
    expect(nextDepositStatus('failed', 'expired')).toBeNull();
    expect(nextDepositStatus('success', 'failed')).toBeNull();
    expect(nextDepositStatus('success', 'succeeded')).toBeNull();
    expect(nextDepositStatus('error', 'succeeded')).toBeNull();
  });
});
