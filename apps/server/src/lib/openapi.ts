import { errorEnvelope } from '@atelier/shared';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_COOKIE, XSRF_COOKIE, XSRF_HEADER } from './session';

/**
 * The OpenAPI document (issue 31): what /api/openapi.json serves, what `npm run lint:api` lints with
 * redocly's recommended rules and what the web client's types are generated from. Every operation
 * gets, in this one place:
 * - a summary (the route's own `schema.summary`, else one read from its method and path) and an
 *   operationId (from the method and path, so it is unique and stable);
 * - its security, read from the route's guard (`config.auth`) and CSRF rule (`config.csrf`);
 * - the error envelope under each 4xx it can answer.
 */

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const VERBS: Record<string, string> = { GET: 'Read', POST: 'Submit', PUT: 'Replace', PATCH: 'Change', DELETE: 'Delete' };

/** Path segments that are words: `/api/products/{slug}/info` → products, info; parameters → `{slug}`. */
function segments(url: string): { words: string[]; params: string[] } {
  const parts = url.split('/').filter((s) => s && s !== 'api');
  const params = parts.filter((s) => s.startsWith(':') || s.startsWith('{')).map((s) => s.replace(/^[:{]|}$/g, ''));
  const words = parts.filter((s) => !s.startsWith(':') && !s.startsWith('{'));
  return { words, params };
}

const camel = (text: string) => text.replace(/[-_.]+(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/[^\w]/g, '');
const title = (text: string) => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** `GET /api/products/:slug/info` → `getProductsInfoBySlug`. */
export function operationIdOf(method: string, url: string): string {
  const { words, params } = segments(url);
  const by = params.length ? `By${params.map((p) => title(camel(p))).join('And')}` : '';
  return `${method.toLowerCase()}${words.map((w) => title(camel(w))).join('')}${by}` || method.toLowerCase();
}

/** `POST /api/cart/items/:id` → `Submit cart items (by id)`: readable where a route gives no summary. */
export function summaryOf(method: string, url: string): string {
  const { words, params } = segments(url);
  const what = words.join(' ').replace(/[-_]/g, ' ') || 'root';
  return `${VERBS[method] ?? method} ${what}${params.length ? ` (by ${params.join(', ')})` : ''}`;
}

type RouteSecurity = Record<string, string[]>[];

/**
 * Who may call a route, in OpenAPI terms. A state-changing call echoes the XSRF-TOKEN cookie in
 * X-XSRF-TOKEN (unless the route says `csrf: false`: a webhook); a guarded route needs the session
 * cookie; a public read works with or without one (`{}`: optional).
 */
export function securityOf(method: string, config: { auth?: string; csrf?: boolean } | undefined): RouteSecurity {
  if (STATE_CHANGING.has(method) && config?.csrf !== false) return [{ session: [], xsrf: [] }];
  if (config?.auth) return [{ session: [] }];
  return STATE_CHANGING.has(method) ? [] : [{}, { session: [] }];
}

type Transform = NonNullable<FastifyDynamicSwaggerOptions['transform']>;
type TransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;

const transform: Transform = (input) => {
  const result = jsonSchemaTransform(input);
  const route = input.route as RouteOptions;
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
  const schema = { ...(result.schema as Record<string, unknown>) };
  const config = route.config as { auth?: string; csrf?: boolean } | undefined;
  schema.summary ??= summaryOf(method, input.url);
  schema.operationId ??= operationIdOf(method, input.url);
  schema.security ??= securityOf(method, config);
  return { ...result, schema };
};

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

type Operation = {
  security?: RouteSecurity;
  parameters?: { in: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
};

/** The error answers an operation can give, each the error envelope (SPEC §5, §7). */
function errorResponsesOf(op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const security = op.security ?? [];
  const needsSession = security.length > 0 && security.every((s) => 'session' in s);
  const needsXsrf = security.length > 0 && security.every((s) => 'xsrf' in s);
  if (needsSession) out['401'] = ref('Unauthenticated');
  if (needsSession) out['403'] = ref('Forbidden');
  if (op.parameters?.some((p) => p.in === 'path')) out['404'] = ref('NotFound');
  if (needsXsrf) out['419'] = ref('CsrfMismatch');
  if (op.requestBody || op.parameters?.length) out['422'] = ref('ValidationFailed');
  out['429'] = ref('RateLimited');
  out['4XX'] = ref('ClientError');
  return out;
}

const transformObject: TransformObject = (input) => {
  const doc = ('openapiObject' in input ? input.openapiObject : input.swaggerObject) as {
    paths?: Record<string, Record<string, Operation>>;
  };
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const id = (op as { operationId?: string }).operationId;
      if (id && seen.has(id)) throw new Error(`Two operations share the operationId ${id} (${path}): give one a schema.operationId.`);
      if (id) seen.add(id);
      op.responses = { ...op.responses, ...errorResponsesOf(op), ...op.responses };
    }
  }
  return doc as ReturnType<TransformObject>;
};

/** What every operation refers to: the error envelope, the error answers, the two security schemes. */
const { $schema: _dialect, ...errorEnvelopeSchema }: Record<string, unknown> = z.toJSONSchema(errorEnvelope, { target: 'draft-2020-12', io: 'output' });
const components = {
  // zod's JSON Schema types `type` as any string; OpenAPI's lists the names: the value is the same object.
  schemas: { ErrorEnvelope: errorEnvelopeSchema as Record<string, never> },
  responses: {
    Unauthenticated: errorResponse('Not signed in, or the session ended: sign in again.'),
    Forbidden: errorResponse('Signed in, but not allowed: the wrong role, an unverified e-mail, a blocked account or a missing second factor.'),
    NotFound: errorResponse('Nothing with this id or slug, or it is not yours.'),
    CsrfMismatch: errorResponse('The X-XSRF-TOKEN header does not match the session: fetch /sanctum/csrf-cookie and try again.'),
    ValidationFailed: errorResponse('The input was refused: `errors` holds the messages per field.'),
    RateLimited: errorResponse('Too many requests: the Retry-After header says when to try again.'),
    ClientError: errorResponse('Another client error (a malformed body, a conflict, a gone item), with a message a person can act on.'),
  },
  securitySchemes: {
    session: {
      type: 'apiKey' as const,
      in: 'cookie' as const,
      name: SESSION_COOKIE,
      description: 'The session cookie (HttpOnly), set by GET /sanctum/csrf-cookie and renewed by sign-in.',
    },
    xsrf: {
      type: 'apiKey' as const,
      in: 'header' as const,
      name: XSRF_HEADER.replace(/(^|-)(\w)/g, (m) => m.toUpperCase()),
      description: `Every state-changing call echoes the readable ${XSRF_COOKIE} cookie in this header (Laravel Sanctum's SPA flow); a mismatch answers 419.`,
    },
  },
};

/** The @fastify/swagger options of the app. */
export const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Atelier API',
      version: '1.0.0',
      description:
        'Marketplace for digital creative works. Every success is `{status: "OK", payload?, message?}`, every failure the error envelope `{status: "ERROR", message, errors?}` (SPEC.md §5, §7).',
      license: { name: 'Proprietary: all rights reserved', url: 'https://atelier.example/pages/terms' },
    },
    components,
    servers: [{ url: '/', description: 'The server that serves this document (its PUBLIC_URL).' }],
  },
  transform,
  transformObject,
};
