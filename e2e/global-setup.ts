import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Starts the built app (npm run build ran before) on a free port and a temporary data folder. */
export default async function setup(project: TestProject) {
  // E2E_BASE_URL=http://... runs the tests against an app that is already running.
  if (process.env.E2E_BASE_URL) {
    project.provide('baseUrl', process.env.E2E_BASE_URL);
    return async () => {};
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-e2e-'));
  const server = await startServer(dataDir);
  project.provide('baseUrl', server.baseUrl);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
