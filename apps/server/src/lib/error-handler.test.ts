import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { registerErrorHandler } from './error-handler';

/**
 * The last line of defence: a value the schemas let through and PostgreSQL refuses is the client's
 * mistake (4xx in the envelope), never a 500. The errors come from the real database through drizzle.
 */
let t: TestApp;
let probe: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp();
  probe = Fastify({ logger: false });
  registerErrorHandler(probe);
  const statements = {
    nul: sql`select ${'a\u0000b'}::text`,
    range: sql`select ${'9223372036854775808'}::bigint`,
    syntax: sql`select ${'twelve'}::bigint`,
  };
  for (const [name, statement] of Object.entries(statements)) {
    probe.get(`/api/${name}`, async () => t.app.db.execute(statement));
    probe.get(`/${name}`, async () => t.app.db.execute(statement));
  }
  probe.get('/api/escape', async () => decodeURIComponent('%E0%A4%A'));
  probe.get('/api/bug', async () => {
    throw new Error('a bug');
  });
  await probe.ready();
});
afterAll(async () => {
  await probe?.close();
  await t?.close();
});

describe('error handler', () => {
  it('answers a value PostgreSQL refuses (NUL, out of range, not a number) with 400 in the envelope', async () => {
    for (const name of ['nul', 'range', 'syntax']) {
      const res = await probe.inject({ url: `/api/${name}` });
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toEqual({
        status: 'ERROR',
        message: 'A value in the request is out of range, too long or holds a character that cannot be stored.',
      });
    }
  });

  it('answers a broken %-escape met while reading a value with 400, and anything else with a generic 500', async () => {
    const broken = await probe.inject({ url: '/api/escape' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ status: 'ERROR', message: 'The request holds a broken %-escape.' });
    const bug = await probe.inject({ url: '/api/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.json()).toEqual({ status: 'ERROR', message: 'Something went wrong on our side. Please try again later.', code: 'server.internal' });
  });

  it('answers a page request that fails with an HTML page with the status, never the envelope', async () => {
    const res = await probe.inject({ url: '/range', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toMatch(/^<!doctype html>/);
    expect(res.body).toContain('A value in the request is out of range');
    // The same failure asked by a client that does not want HTML keeps the envelope.
    expect((await probe.inject({ url: '/range' })).json().status).toBe('ERROR');
  });
});
