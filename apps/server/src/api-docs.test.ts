import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { ConfigError, loadConfig } from './config';

/** Issue 29: the OpenAPI document and its docs page map every route; production shows them only when told. */
const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' };
let closed: TestApp;
let open: TestApp;
beforeAll(async () => {
  closed = await createTestApp({ env: production });
  open = await createTestApp({ env: { ...production, API_DOCS: 'true' } });
});
afterAll(async () => {
  await closed.close();
  await open.close();
});

describe('API docs in production', () => {
  it('answer 404 in production without API_DOCS, and the API itself still answers', async () => {
    for (const url of ['/api/openapi.json', '/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html']) {
      const res = await closed.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().status, url).toBe('ERROR');
      expect(res.body, url).not.toMatch(/"paths"|swagger-ui/i);
    }
    expect((await closed.app.inject({ url: '/api/settings' })).statusCode).toBe(200);
  });

  it('are served in production with API_DOCS=true', async () => {
    const doc = await open.app.inject({ url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    const page = await open.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
  });

  it('is parsed once with the rest of the environment: on outside production, a bad value stops the start', () => {
    const dataDir = closed.app.config.dataDir;
    expect(loadConfig({ DATA_DIR: dataDir }).apiDocs).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, API_DOCS: 'false' }).apiDocs).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, ...production }).apiDocs).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir, ...production, API_DOCS: '1' }).apiDocs).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dataDir, API_DOCS: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir, API_DOCS: 'yes' })).toThrow(/API_DOCS: must be true or false/);
  });
});
