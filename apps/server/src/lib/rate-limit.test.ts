import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/test-app';
import { AppError } from './app-error';
import { assertUnderLimit, clearRateLimit, enforceRateLimit, releaseRateLimitHit } from './rate-limit';

const t = useTestApp();

describe('rate limits in PostgreSQL', () => {
  it('allows the limit, then answers 429 with Retry-After and a time to wait', async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.app.db, 'test:a', { limit: 3, windowSeconds: 60 });
    const err = await enforceRateLimit(t.app.db, 'test:a', { limit: 3, windowSeconds: 60 }, 'Too many messages.').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).statusCode).toBe(429);
    expect((err as AppError).message).toMatch(/^Too many messages\. Please try again in \d+ seconds\.$/);
    expect(Number((err as AppError).headers?.['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps keys apart and can be cleared', async () => {
    await enforceRateLimit(t.app.db, 'test:b', { limit: 1, windowSeconds: 60 });
    await expect(assertUnderLimit(t.app.db, 'test:b', 1)).rejects.toThrow(/try again/);
    await expect(assertUnderLimit(t.app.db, 'test:c', 1)).resolves.toBeUndefined();
    await clearRateLimit(t.app.db, 'test:b');
    await expect(assertUnderLimit(t.app.db, 'test:b', 1)).resolves.toBeUndefined();
  });

  it('counts down the wait, and starts a new window once the old one has passed', async () => {
    // The windows run on the app's clock: Date only, so the database and the test runner keep their timers.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const limit = { limit: 1, windowSeconds: 60 };
      await enforceRateLimit(t.app.db, 'test:d', limit);
      vi.setSystemTime(Date.now() + 30_000);
      await expect(enforceRateLimit(t.app.db, 'test:d', limit)).rejects.toThrow('Too many requests. Please try again in 30 seconds.');
      await expect(assertUnderLimit(t.app.db, 'test:d', 1)).rejects.toThrow('Too many attempts. Please try again in 30 seconds.');
      vi.setSystemTime(Date.now() + 30_000);
      await expect(assertUnderLimit(t.app.db, 'test:d', 1)).resolves.toBeUndefined();
      await expect(enforceRateLimit(t.app.db, 'test:d', limit)).resolves.toBeUndefined();
      await expect(enforceRateLimit(t.app.db, 'test:d', limit)).rejects.toThrow('Please try again in 60 seconds.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes back a hit counted in the current window (a sign-in that succeeds is no failure)', async () => {
    const limit = { limit: 1, windowSeconds: 60 };
    await enforceRateLimit(t.app.db, 'test:e', limit);
    await releaseRateLimitHit(t.app.db, ['test:e']);
    await expect(enforceRateLimit(t.app.db, 'test:e', limit)).resolves.toBeUndefined();
    await expect(assertUnderLimit(t.app.db, 'test:e', 1)).rejects.toThrow(/try again/);
  });
});
