import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date';

describe('formatDateTime', () => {
  it('shows dd.mm.yyyy HH:mm, with seconds on request', () => {
    const at = new Date(2026, 0, 5, 9, 7, 3).getTime() / 1000;
    expect(formatDateTime(at)).toBe('05.01.2026 09:07');
    expect(formatDateTime(at, true)).toBe('05.01.2026 09:07:03');
  });
});
