import { describe, expect, it } from 'vitest';
import { createMicroCache } from './micro-cache';

describe('micro cache', () => {
  it('reuses a value until it expires, and loads once for concurrent misses', async () => {
    let clock = 0;
    let loads = 0;
    const cache = createMicroCache<number>({ ttlMs: 1000, maxEntries: 10, now: () => clock });
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    clock = 999;
    expect(await cache.get('a', load)).toBe(1);
    clock = 1000;
    expect(await cache.get('a', load)).toBe(2);
  });

  it('never stores a failure and stays within its bound', async () => {
    const cache = createMicroCache<string>({ ttlMs: 1000, maxEntries: 2 });
    await expect(cache.get('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('x', async () => 'ok')).toBe('ok');
    await cache.get('y', async () => 'y');
    await cache.get('z', async () => 'z');
    expect(cache.size).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
