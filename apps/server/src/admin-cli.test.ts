import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../test/test-app';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '..');

describe('npm run admin:create', () => {
  // It runs the CLI twice as a child process (each run starts Node, opens the database and hashes a password).
  it('creates the first staff account with a generated password that signs in as admin', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-admin-cli-'));
    try {
      const env = {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://atelier.example',
        PAYMENT_PROVIDER: 'sandbox',
      };
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/admin-cli.ts', '--email', 'Staff@Atelier.example', '--generate'], {
        cwd: serverDir,
        env,
      });
      expect(stdout).toContain('Staff account created: staff@atelier.example');
      const password = /Password \(shown once, keep it safe\): (\S+)/.exec(stdout)?.[1];
      expect(password?.length).toBeGreaterThanOrEqual(20);
      // Issue 21: the command says that staff need a second factor before the back office opens in production.
      expect(stdout).toContain('turn on two-factor sign-in under Dashboard → Security');

      const bad = await run(process.execPath, ['--import', 'tsx', 'src/admin-cli.ts', '--email', 'not-an-address'], { cwd: serverDir, env }).catch(
        (err: { code: number; stderr: string }) => err,
      );
      expect((bad as { code: number }).code).toBe(2);
      expect((bad as { stderr: string }).stderr).toContain('Usage: npm run admin:create -- --email');

      const config = loadConfig({
        DATA_DIR: dataDir,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://atelier.example',
        PAYMENT_PROVIDER: 'sandbox',
        LOG_LEVEL: 'silent',
      });
      const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
      const app = await buildApp({ config, database, logger: false });
      try {
        const client = new TestClient(app);
        const login = await client.post('/api/login', { username: 'staff@atelier.example', password });
        expect(login.statusCode).toBe(200);
        expect((await client.get('/api/user/profile')).json().payload.role).toBe('admin');
        // Production: without a second factor the back office refuses and says where to set one up.
        const refused = await client.get('/api/admin/users');
        expect(refused.statusCode).toBe(403);
        expect(refused.json().message).toContain('Staff accounts need two-factor sign-in');
      } finally {
        await app.close();
        await database.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
