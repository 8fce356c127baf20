import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';

/**
 * `tsx apps/server/src/openapi-cli.ts [file]` writes the OpenAPI document (what /api/openapi.json
 * serves) without a listening port or a real database: the app is built on an empty in-memory PGlite,
 * the document is taken and the app closed. `npm run lint:api` lints it; `npm run api:generate`
 * writes packages/shared/openapi.json and the web client's types (packages/shared/src/api-paths.ts).
 */
export async function buildOpenApiDocument(): Promise<object> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-openapi-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 's'.repeat(40),
    WEB_DIST: path.join(dataDir, 'no-web'),
    PUBLIC_URL: 'http://localhost:3000',
    API_DOCS: 'true',
  });
  const database = await openDatabase({ pgliteDir: 'memory://' });
  // Some features enqueue their recurring jobs while they register.
  await runMigrations(database);
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const target = process.argv[2];
  const document = `${JSON.stringify(await buildOpenApiDocument(), null, 2)}\n`;
  if (!target) return void process.stdout.write(document);
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, document);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
