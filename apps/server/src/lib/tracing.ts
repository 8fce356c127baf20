import { createRequire } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import type { FastifyInstance } from 'fastify';

/**
 * OpenTelemetry traces (the Node SDK): an HTTP server span per request, Fastify's request, hook and
 * handler spans under it, and a span per PostgreSQL statement (node-postgres), each request's spans
 * carrying its request id (`atelier.request_id`, the id in its log lines and X-Request-Id).
 *
 * On only when OTEL_EXPORTER_OTLP_ENDPOINT is set (config.ts): spans are batched to that collector
 * over OTLP/HTTP (`<endpoint>/v1/traces`). Nothing is fetched at install or start. Off, no hook
 * or span is added to any request. PGlite (the embedded database) is not node-postgres: its
 * statements make no spans.
 *
 * Span attributes carry the path only, never the query string (it may hold a signed link or a token).
 */

/** The attribute that ties a trace to the request's log lines. */
export const REQUEST_ID_ATTRIBUTE = 'atelier.request_id';

export type Tracing = {
  /** Registers the Fastify spans and the request id attribute on an app (buildApp calls it). */
  instrument(app: FastifyInstance): Promise<void>;
  /** Sends what is buffered (tests, shutdown). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
};

let active: Tracing | null = null;

/** The running tracing, or null when it is off. */
export function activeTracing(): Tracing | null {
  return active;
}

const pathOnly = (url: string | undefined) => (url ?? '/').split('?')[0]!;

/**
 * Starts tracing for this process: with `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT) to an OTLP/HTTP
 * collector, or with `exporter` (tests: the in-memory exporter, spans kept as they end). Null when
 * neither is given: tracing stays off.
 */
export function startTracing(opts: { endpoint?: string; serviceName: string; exporter?: SpanExporter }): Tracing | null {
  if (active) return active;
  if (!opts.endpoint && !opts.exporter) return null;
  const processor = opts.exporter
    ? new SimpleSpanProcessor({ exporter: opts.exporter })
    : new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${opts.endpoint!.replace(/\/+$/, '')}/v1/traces` }) });
  const fastifyOtel = new FastifyOtelInstrumentation({
    requestHook: (span, request) => {
      span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
      span.setAttribute('url.path', pathOnly(request.url));
    },
  });
  const http = new HttpInstrumentation({
    // The server span's URL attributes without the query string.
    requestHook: (span, req) => {
      if (!('headers' in req) || 'method' in req === false || !('url' in req)) return;
      const url = (req as { url?: string }).url ?? '/';
      const path = pathOnly(url);
      span.setAttribute('http.target', path);
      span.setAttribute('url.path', path);
      span.setAttribute('http.url', path);
      if (url.includes('?')) span.setAttribute('url.query', '[redacted]');
    },
  });
  const sdk = new NodeSDK({
    serviceName: opts.serviceName,
    spanProcessors: [processor],
    // Traces only: metrics are Prometheus's (lib/metrics.ts) and logs pino's, so the SDK must not start
    // its own OTLP metric and log exporters (it would, from OTEL_EXPORTER_OTLP_ENDPOINT alone).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [http, new PgInstrumentation(), fastifyOtel],
  });
  sdk.start();
  // The server's modules are loaded before the configuration is read (and so before this runs): the
  // instrumentations patch node-postgres and http when they are required again, the same objects the
  // app already holds, so every pool and server made from now on is traced.
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'pg', 'pg-pool']) {
    try {
      require(name);
    } catch {
      // pg-pool is pg's own dependency: resolved from pg when not from here.
    }
  }
  const tracingNow: Tracing = {
    async instrument(app) {
      // The HTTP server span (active while Fastify's hooks run) gets the request id too.
      app.addHook('onRequest', async (request) => {
        trace.getActiveSpan()?.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
      });
      await app.register(fastifyOtel.plugin());
    },
    flush: () => processor.forceFlush(),
    async shutdown() {
      active = null;
      await sdk.shutdown();
    },
  };
  active = tracingNow;
  return tracingNow;
}
