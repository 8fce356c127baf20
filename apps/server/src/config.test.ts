import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SESSION_SECRET: 'short', NODE_ENV: 'staging' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/^PORT:/m);
    expect(problems).toMatch(/^DATABASE_URL: must start with postgres:\/\//m);
    expect(problems).toMatch(/^SESSION_SECRET: must be at least 32 characters/m);
    expect(problems).toMatch(/^NODE_ENV:/m);
  });

  it('uses the defaults and keeps a generated session secret in DATA_DIR', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atelier-config-'));
    const a = loadConfig({ DATA_DIR: dir });
    const b = loadConfig({ DATA_DIR: dir });
    expect(a.port).toBe(3000);
    expect(a.publicUrl).toBe('http://localhost:3000');
    expect(a.databaseUrl).toBeUndefined();
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.sessionSecret).toBe(a.sessionSecret);
    expect((await readFile(path.join(dir, 'session-secret'), 'utf8')).trim()).toBe(a.sessionSecret);
  });
});
