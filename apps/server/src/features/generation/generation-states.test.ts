import { describe, expect, it } from 'vitest';
import { allowedMoves } from '../../lib/lifecycle';
import { generationLifecycle } from './generation-states';

describe('generation lifecycle', () => {
  it('walks every move the table allows and refuses every other (state × state × actor)', () => {
    expect(allowedMoves(generationLifecycle, ['user', 'system'])).toEqual(
      ['new>pending:user', 'pending>done:system', 'pending>refunded:system', 'pending>failed:system'].sort(),
    );
    expect(generationLifecycle.exitsOf('pending').sort()).toEqual(['done', 'failed', 'refunded']);
    for (const end of ['done', 'refunded', 'failed'] as const) expect(generationLifecycle.exitsOf(end)).toEqual([]);
  });

  it('a paid generation that fails is refunded; a free one is failed', () => {
    expect(generationLifecycle.refusal('pending', 'refunded', 'system', { priceMinor: 300 })).toBeNull();
    expect(generationLifecycle.refusal('pending', 'failed', 'system', { priceMinor: 300 })).toBe('A paid generation is refunded, not failed.');
    expect(generationLifecycle.refusal('pending', 'failed', 'system', { priceMinor: 0 })).toBeNull();
    expect(generationLifecycle.refusal('pending', 'refunded', 'system', { priceMinor: 0 })).toBe('A free generation has nothing to refund.');
    expect(generationLifecycle.refusal('done', 'refunded', 'system', { priceMinor: 300 })).toBe('notListed');
  });
});
