import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';
import { REQUEST_ID_ATTRIBUTE, startTracing, type Tracing } from './tracing';

/** As a start without OTEL_EXPORTER_OTLP_ENDPOINT: nothing is started. */
const withoutEndpoint = startTracing({ endpoint: undefined, serviceName: 'atelier-test' });
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  // As server.ts does with OTEL_EXPORTER_OTLP_ENDPOINT set, but kept in memory.
  tracing = startTracing({ serviceName: 'atelier-test', exporter })!;
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  await tracing.shutdown();
});

describe('tracing (OpenTelemetry, in-memory exporter)', () => {
  it('is off without an endpoint', () => {
    expect(withoutEndpoint).toBeNull();
  });

  it('records an HTTP span and Fastify spans carrying the request id, and the database statements under them', async () => {
    const requestId = 'trace-test-0123456789';
    const res = await fetch(`${baseUrl}/api/products/catalog?search=light&token=do-not-trace`, { headers: { 'x-request-id': requestId } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const ofRequest = spans.filter((s) => s.attributes[REQUEST_ID_ATTRIBUTE] === requestId);
    const scopes = ofRequest.map((s) => s.instrumentationScope.name);
    // The HTTP server span (instrumentation-http) and Fastify's request span (@fastify/otel).
    expect(scopes).toContain('@opentelemetry/instrumentation-http');
    expect(scopes.some((name) => name.includes('fastify'))).toBe(true);
    const fastifySpan = ofRequest.find((s) => s.instrumentationScope.name.includes('fastify'))!;
    expect(JSON.stringify(fastifySpan.attributes)).toContain('/api/products/catalog');
    // Never the query string: it may carry a signed link or a token.
    for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain('do-not-trace');

    const traceId = ofRequest[0]!.spanContext().traceId;
    const pgSpans = spans.filter((s) => s.instrumentationScope.name === '@opentelemetry/instrumentation-pg' && s.spanContext().traceId === traceId);
    if (t.app.database.kind === 'postgres') {
      // node-postgres: each statement of the request is a span in the request's trace.
      expect(pgSpans.length).toBeGreaterThan(0);
      expect(pgSpans.some((s) => String(s.attributes['db.system'] ?? s.attributes['db.system.name']) === 'postgresql')).toBe(true);
    } else {
      // PGlite runs inside this process, not through node-postgres: it makes no database spans.
      expect(pgSpans).toEqual([]);
    }
  });
});
