import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { depositLifecycle, nextDepositStatus } from './deposit-states';

describe('deposit lifecycle', () => {
  it('walks every move the table allows and refuses every other (state × state × actor)', () => {
    expect(allowedMoves(depositLifecycle, ['user', 'provider', 'system'])).toEqual(
      ['new>processing:user', 'processing>success:provider', 'processing>failed:provider', 'processing>failed:system', 'failed>success:provider'].sort(),
    );
    expect(depositLifecycle.exitsOf('processing').sort()).toEqual(['failed', 'success']);
    expect(depositLifecycle.exitsOf('success')).toEqual([]);
  });

  it('a processing deposit succeeds, fails or expires', () => {
    expect(nextDepositStatus('processing', 'succeeded')).toBe('success');
    expect(nextDepositStatus('processing', 'failed')).toBe('failed');
    expect(nextDepositStatus('processing', 'expired')).toBe('failed');
  });

  it('a late success after a failure is still credited; nothing leaves success', () => {
    expect(nextDepositStatus('failed', 'succeeded')).toBe('success');
    expect(nextDepositStatus('failed', 'expired')).toBeNull();
    expect(nextDepositStatus('failed', 'failed')).toBeNull();
    expect(nextDepositStatus('success', 'failed')).toBeNull();
    expect(nextDepositStatus('success', 'succeeded')).toBeNull();
    expect(nextDepositStatus('error', 'succeeded')).toBeNull();
  });
});
