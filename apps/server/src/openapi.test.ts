import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf, securityOf, summaryOf } from './lib/openapi';
import { buildOpenApiDocument } from './openapi-cli';

/**
 * Issue 31: the OpenAPI document is a contract other tools build on. It is committed
 * (packages/shared/openapi.json) with the web client's types generated from it
 * (packages/shared/src/api-paths.ts); `npm run api:generate` writes both, and this test fails when
 * either is stale. Every answer is `{status, payload?, meta?, message?}` or the error envelope.
 */
type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; anyOf?: Schema[]; required?: string[] };
type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const root = path.resolve(import.meta.dirname, '../../..');
let doc: Doc;
beforeAll(async () => {
  doc = (await buildOpenApiDocument()) as Doc;
}, 120_000);

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })));

describe('the OpenAPI document', () => {
  it('is the committed packages/shared/openapi.json (run `npm run api:generate` after changing a route)', async () => {
    const committed = await readFile(path.join(root, 'packages/shared/openapi.json'), 'utf8');
    expect(JSON.parse(committed)).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  describe('the generated web types', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'atelier-api-types-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('are what openapi-typescript makes of the document now (packages/shared/src/api-paths.ts)', { timeout: 120_000 }, async () => {
      await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(doc));
      const bin = path.join(root, 'node_modules/.bin/openapi-typescript');
      await promisify(execFile)(bin, [path.join(dir, 'openapi.json'), '--output', path.join(dir, 'api-paths.ts')]);
      const fresh = await readFile(path.join(dir, 'api-paths.ts'), 'utf8');
      const committed = await readFile(path.join(root, 'packages/shared/src/api-paths.ts'), 'utf8');
      expect(committed === fresh, 'packages/shared/src/api-paths.ts is stale: run `npm run api:generate`').toBe(true);
    });
  });

  it('lists the live stream, the payment webhook, health, readiness and the CSRF cookie', () => {
    expect(doc.paths['/api/events']?.get?.responses['200']?.content).toHaveProperty('text/event-stream');
    expect(doc.paths['/api/payments/webhook/{provider}']?.post?.security).toEqual([]);
    expect(doc.paths['/healthz']?.get).toBeDefined();
    expect(doc.paths['/readyz']?.get).toBeDefined();
    expect(doc.paths['/sanctum/csrf-cookie']?.get?.responses).toHaveProperty('204');
  });

  it('gives every operation a unique operationId, a summary, its security and the error envelope under its 4xx', () => {
    const ids = new Set<string>();
    for (const { key, op } of operations()) {
      expect(op.operationId, key).toMatch(/^[a-z]+[A-Za-z0-9]*$/);
      expect(ids.has(op.operationId!), key).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary, key).toBeTruthy();
      expect(op.security, key).toBeDefined();
      const clientErrors = Object.entries(op.responses).filter(([code]) => code.startsWith('4'));
      expect(clientErrors.length, key).toBeGreaterThan(0);
      for (const [, answer] of clientErrors) expect(answer.$ref, key).toMatch(/^#\/components\/responses\//);
    }
    expect(doc.components.schemas.ErrorEnvelope?.required).toEqual(['status', 'message']);
  });

  it('answers every success in the one envelope: status, payload, meta, message and nothing else', () => {
    const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? doc.components.schemas[s.$ref.split('/').pop()!] : s);
    const outside: string[] = [];
    let checked = 0;
    for (const { key, op } of operations()) {
      for (const [code, answer] of Object.entries(op.responses)) {
        const schema = resolve(answer.content?.['application/json']?.schema);
        if (!code.startsWith('2') || !schema) continue;
        checked += 1;
        const keys = Object.keys(schema.properties ?? {});
        const extra = keys.filter((k) => !['status', 'payload', 'meta', 'message'].includes(k));
        if (!keys.includes('status') || extra.length) outside.push(`${key} ${code}: ${keys.join(', ')}`);
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(outside).toEqual([]);
  });
});

describe('what the document derives from a route', () => {
  it('names an operation by its method and path, and summarises it readably', () => {
    expect(operationIdOf('GET', '/api/products/:slug/info')).toBe('getProductsInfoBySlug');
    expect(operationIdOf('POST', '/api/orders/:id/refund-request')).toBe('postOrdersRefundRequestById');
    expect(summaryOf('DELETE', '/api/cart/items/:id')).toBe('Delete cart items (by id)');
  });

  it('reads the security from the guard and the CSRF rule', () => {
    expect(securityOf('GET', undefined)).toEqual([{}, { session: [] }]);
    expect(securityOf('GET', { auth: 'user' })).toEqual([{ session: [] }]);
    expect(securityOf('POST', undefined)).toEqual([{ session: [], xsrf: [] }]);
    expect(securityOf('POST', { csrf: false })).toEqual([]);
  });
});
