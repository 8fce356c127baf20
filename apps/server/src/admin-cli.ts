import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { createStaffAccount } from './features/users';

/**
 * `npm run admin:create -- --email staff@example.com [--name Ada --surname Lovelace] [--generate]`
 * creates the first real staff account (or makes an existing account staff and gives it a new password).
 * The password is asked for on a terminal, or generated and printed once with --generate or without one.
 */
async function askPassword(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  const answer = new Promise<string>((resolve) => rl.question(question, resolve));
  muted = true;
  const value = await answer;
  rl.close();
  process.stdout.write('\n');
  return value;
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string', default: 'Staff' },
      surname: { type: 'string', default: 'Member' },
      generate: { type: 'boolean', default: false },
    },
  });
  const email = z.email().safeParse(values.email?.trim().toLowerCase());
  if (!email.success) {
    console.error('Usage: npm run admin:create -- --email staff@example.com [--name Ada] [--surname Lovelace] [--generate]');
    process.exit(2);
  }
  let password: string;
  if (values.generate || !process.stdin.isTTY) {
    password = randomBytes(18).toString('base64url');
  } else {
    password = await askPassword('Password for the new staff account (at least 12 characters): ');
    const again = await askPassword('Repeat the password: ');
    if (password !== again) {
      console.error('The two passwords differ. Nothing was changed.');
      process.exit(2);
    }
  }
  const config = loadConfig(process.env, process.env.INIT_CWD ?? process.cwd());
  const database = await openDatabase({ url: config.databaseUrl, ...config.database, pgliteDir: path.join(config.dataDir, 'db') });
  try {
    await runMigrations(database);
    const result = await createStaffAccount(database.db, { email: email.data, name: values.name!, surname: values.surname!, password });
    if (!result.ok) {
      console.error(result.problem);
      process.exitCode = 2;
      return;
    }
    console.log(result.created ? `Staff account created: ${email.data}` : `Existing account ${email.data} is now staff, with a new password.`);
    if (values.generate || !process.stdin.isTTY) console.log(`Password (shown once, keep it safe): ${password}`);
    // Issue 21: in production the back office refuses staff without a second factor.
    console.log(
      'Before using the back office in production, sign in and turn on two-factor sign-in under Dashboard → Security (/dashboard/security): staff without a second factor are refused there.',
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : `Could not create the staff account: ${(err as Error).message}`);
  process.exit(1);
});
