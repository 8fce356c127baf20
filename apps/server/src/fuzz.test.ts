import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerStaff, registerUser, signIn } from '../test/accounts';
import { createTestApp, type TestApp, TestClient } from '../test/test-app';
import { users } from './db/schema';

/**
 * Malformed requests to every route the OpenAPI document lists, as a guest and signed in: wrong
 * types, NUL characters, huge numbers, deep nesting, overlong text, broken %-escapes, invalid JSON,
 * wrong content types, garbage cookies and XSRF tokens. No answer may be a 5xx, and every /api answer
 * with a body must be the envelope. Routes are read from /api/openapi.json, so a new route joins in.
 *
 * The sequence is seeded: a failure comes back on the next run. FUZZ_SEED=<n> tries another one.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
/** Requests per route and identity (guest, signed in). */
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 32);
/** Random requests per back-office route signed in as staff (besides one per systematic value). */
const STAFF_PER_ROUTE = Number(process.env.FUZZ_STAFF_PER_ROUTE ?? 24);
const MIN_REQUESTS = 2000;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
};
type Parameter = { in: string; name: string; schema?: JsonSchema };
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };
type Route = { method: string; path: string; params: Parameter[]; body?: JsonSchema; multipart: boolean };
type FuzzRequest = { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer };

/** mulberry32: small, fast and the same on every platform. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(list: readonly T[]): T {
      return list[Math.floor(next() * list.length)]!;
    },
  };
}
type Rnd = ReturnType<typeof prng>;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function deepArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function deepObject(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const LONG = 'a'.repeat(5_000);
const VERY_LONG = 'b'.repeat(300_000);

/** Values of the wrong kind, or of the right kind at their worst, for any JSON field. */
const NASTY_VALUES: unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '\uD800',
  '\uFFFF',
  '😀'.repeat(40),
  '<script>alert(1)</script>',
  "' or 1=1 --",
  LONG,
  VERY_LONG,
  '9223372036854775808',
  '-1',
  '1.5',
  '1e308',
  'NaN',
  0,
  -1,
  1.5,
  -0.5,
  1e308,
  -1e308,
  2 ** 63,
  2 ** 53 + 2,
  2 ** 31,
  true,
  false,
  null,
  [],
  {},
  ['a', 'b'],
  { a: 1 },
  Array.from({ length: 5_000 }, () => 'x'),
  deepArray(1000),
  deepObject(1000),
];

/** Raw (already %-encoded, or deliberately broken) values for a path segment or a query value. */
const RAW_VALUES = [
  '%00',
  'a%00b',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%80',
  '%FF%FE',
  '%ED%A0%80',
  '9223372036854775808',
  '-9223372036854775809',
  '1e308',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '0x1F',
  '%20',
  '+',
  encodeURIComponent('😀'),
  encodeURIComponent('<script>'),
  encodeURIComponent("' or 1=1 --"),
  '%2e%2e',
  'a'.repeat(250),
  LONG,
  'null',
  '[]',
  ',,,',
  Array.from({ length: 60 }, (_, i) => i + 1).join(','),
];

const BROKEN_BODIES = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'nul',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '"just a string"',
  '123',
  'null',
  '[]',
  '[1,2,3]',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`,
  '\uFEFF{}',
];

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/octet-stream',
  'application/vnd.api+json',
  '*/*',
  'garbage',
];

const BAD_HEADERS: Record<string, string>[] = [
  { 'x-xsrf-token': '%' },
  { 'x-xsrf-token': '%E0%A4%A' },
  { 'x-xsrf-token': 'x'.repeat(10_000) },
  { 'x-xsrf-token': '' },
  { cookie: 'atelier_session=%; XSRF-TOKEN=%' },
  { cookie: `atelier_session=${'s'.repeat(4000)}` },
  { cookie: 'atelier_session=%E0%A4%A' },
  { cookie: '=;=;;;atelier_session' },
  { cookie: 'selectedCurrency=%00; consent=%' },
  { 'x-currency': 'ZZZ' },
  { 'x-currency': 'c'.repeat(300) },
  { 'x-currency': '%00' },
  { accept: 'text/html' },
  { accept: 'application/xml' },
  { 'x-request-id': 'r'.repeat(1000) },
  { 'content-length': '5' },
];

function firstType(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

let addresses = 0;

/** A value the schema accepts, as far as its JSON Schema tells (names help with formats it does not carry). */
function plausible(schema: JsonSchema | undefined, name: string): unknown {
  if (!schema) return 'fuzz';
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.anyOf?.length) return plausible(schema.anyOf[0], name);
  switch (firstType(schema)) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1), schema.maximum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, name)];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, s]) => [key, plausible(s, key)]));
    default: {
      // A new address each time, so a sign-up gets past "already taken" to the rest of its work.
      if (/e-?mail|username/i.test(name)) return `fuzz${++addresses}@example.com`;
      if (/phone/i.test(name)) return '+351912345678';
      if (/pass/i.test(name)) return 'violet-harbour-42';
      if (/code/i.test(name)) return '123456';
      if (/hash/i.test(name)) return 'a'.repeat(40);
      if (/signature/i.test(name)) return 'a'.repeat(64);
      const text = 'fuzzing text that is long enough'.padEnd(schema.minLength ?? 0, 'x');
      return text.slice(0, schema.maxLength ?? text.length);
    }
  }
}

/** A plausible value as it travels in a URL. */
function plausibleRaw(param: Parameter): string {
  const value = plausible(param.schema, param.name);
  return encodeURIComponent(String(Array.isArray(value) ? value[0] : value));
}

function buildPath(route: Route, rnd: Rnd): string {
  let path = route.path;
  const pathParams = route.params.filter((p) => p.in === 'path');
  const target = pathParams.length && rnd.chance(0.7) ? rnd.pick(pathParams) : null;
  for (const param of pathParams) {
    const raw = param === target ? rnd.pick(RAW_VALUES) : plausibleRaw(param);
    path = path.replace(`{${param.name}}`, raw);
  }
  // A broken escape where no parameter is.
  if (rnd.chance(0.05)) {
    const at = path.lastIndexOf('/') + 1;
    path = `${path.slice(0, at)}${rnd.pick(['%', '%zz', '%E0%A4%A'])}${path.slice(at)}`;
  }
  return `/api${path}`;
}

function buildQuery(route: Route, rnd: Rnd): string {
  const parts: string[] = [];
  for (const param of route.params.filter((p) => p.in === 'query')) {
    if (!rnd.chance(0.5)) continue;
    const name = encodeURIComponent(param.name);
    switch (rnd.int(5)) {
      case 0:
        parts.push(`${name}=${plausibleRaw(param)}`);
        break;
      case 1:
        parts.push(`${name}=${rnd.pick(RAW_VALUES)}&${name}=${rnd.pick(RAW_VALUES)}`);
        break;
      case 2:
        parts.push(`${name}[a][b]=${rnd.pick(RAW_VALUES)}`, `${name}[]=1`);
        break;
      default:
        parts.push(`${name}=${rnd.pick(RAW_VALUES)}`);
    }
  }
  if (rnd.chance(0.15)) {
    parts.push(
      rnd.pick(['__proto__=x', 'constructor[prototype][x]=1', 'x=%00', '%00=1', `${'k'.repeat(2000)}=v`, '%zz=%zz', '&&&', '=', `${'a[0]'.repeat(1000)}=1`]),
    );
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function multipartBody(rnd: Rnd): { payload: Buffer; contentType: string } {
  const boundary = 'fuzzboundary';
  const field = rnd.pick(['avatar', 'file', '', 'a\u0000b']);
  const filename = rnd.pick(['x.png', '', '../../etc/passwd', 'a\u0000.png', 'f'.repeat(1000)]);
  const data = rnd.pick([
    Buffer.from('not an image'),
    Buffer.from('a=1&b=%00&c=%zz'),
    Buffer.alloc(0),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
    Buffer.alloc(3000, 0xff),
  ]);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`);
  const whole = Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const cut = rnd.chance(0.3) ? whole.subarray(0, rnd.int(whole.length)) : whole;
  const contentType = rnd.pick([
    `multipart/form-data; boundary=${boundary}`,
    `multipart/form-data; boundary=${boundary}`,
    'multipart/form-data; boundary=other',
    'multipart/form-data; boundary=',
    'multipart/form-data',
  ]);
  return { payload: cut, contentType };
}

/** A body for the route: mostly its own shape with one field broken, else broken as a whole. */
function buildBody(route: Route, rnd: Rnd): { payload?: string | Buffer; contentType?: string } {
  if (route.multipart && rnd.chance(0.7)) return multipartBody(rnd);
  const base = (route.body ? plausible(route.body, 'body') : {}) as Record<string, unknown>;
  const keys = Object.keys(base);
  switch (rnd.int(9)) {
    case 0:
    case 1:
    case 2: {
      const body = { ...base };
      const key = keys.length ? rnd.pick(keys) : 'extra';
      body[key] = rnd.pick(NASTY_VALUES);
      if (rnd.chance(0.3)) body[rnd.pick(['__proto__', 'constructor', 'extra', 'a\u0000b'])] = rnd.pick(NASTY_VALUES);
      return { payload: JSON.stringify(body), contentType: 'application/json' };
    }
    case 3:
      return { payload: rnd.pick(BROKEN_BODIES), contentType: 'application/json' };
    case 4:
      return { payload: JSON.stringify(rnd.pick(NASTY_VALUES)), contentType: 'application/json' };
    case 5:
      return { payload: rnd.chance(0.5) ? JSON.stringify(base) : 'a=1&b=%00&c=%zz', contentType: rnd.pick(WRONG_CONTENT_TYPES) };
    case 6:
      return { payload: '', contentType: rnd.pick(['application/json', 'text/plain', 'multipart/form-data; boundary=x']) };
    case 7:
      // The OpenAPI document cannot say a route reads multipart (no JSON schema): every route gets some.
      return multipartBody(rnd);
    default:
      return { payload: JSON.stringify(base), contentType: 'application/json' };
  }
}

/** The values every parameter and every body field gets at least once, as well as the random draws. */
const SYSTEMATIC_RAW = ['%00', 'a%00b', '%E0%A4%A', '9223372036854775808', '123456789012345678901234', '-1', '1.5', '1e308', 'a'.repeat(250)];
const SYSTEMATIC_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '123456789012345678901234',
  2 ** 63,
  1e308,
  -1,
  1.5,
  LONG,
  null,
  [],
  {},
  deepArray(1000),
  deepObject(1000),
];

type IdentityHeaders = { cookie: string; xsrf: string };

/** The route's plausible request with exactly one parameter or body field replaced, for each systematic value. */
function systematicRequests(route: Route, identity: () => IdentityHeaders): (() => FuzzRequest)[] {
  const pathParams = route.params.filter((p) => p.in === 'path');
  const plainPath = (swap?: { name: string; raw: string }) => {
    let path = route.path;
    for (const param of pathParams) path = path.replace(`{${param.name}}`, param.name === swap?.name ? swap.raw : plausibleRaw(param));
    return `/api${path}`;
  };
  // A fresh plausible body for each request (a new e-mail address each time), with at most one field swapped.
  const base = () => (route.body ? (plausible(route.body, 'body') as Record<string, unknown>) : undefined);
  const make = (url: string, swap?: { key: string; value: unknown }) => () => {
    const { cookie, xsrf } = identity();
    const headers: Record<string, string> = { cookie, 'x-xsrf-token': xsrf };
    const body = base();
    if (body === undefined) return { method: route.method, url, headers };
    if (swap) body[swap.key] = swap.value;
    return { method: route.method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) };
  };
  const list: (() => FuzzRequest)[] = [];
  for (const param of route.params) {
    for (const raw of SYSTEMATIC_RAW) {
      if (param.in === 'path') list.push(make(plainPath({ name: param.name, raw })));
      else if (param.in === 'query') list.push(make(`${plainPath()}?${encodeURIComponent(param.name)}=${raw}`));
    }
  }
  for (const key of Object.keys(route.body?.properties ?? {})) {
    for (const value of SYSTEMATIC_VALUES) list.push(make(plainPath(), { key, value }));
  }
  return list;
}

function buildRequest(route: Route, rnd: Rnd, identity: IdentityHeaders): FuzzRequest {
  let method = route.method;
  const methodSwap = rnd.int(25);
  if (methodSwap === 0) method = rnd.pick(['PATCH', 'DELETE', 'PUT', 'OPTIONS']);
  else if (methodSwap === 1 && method === 'GET') method = 'HEAD';
  const headers: Record<string, string> = { cookie: identity.cookie, 'x-xsrf-token': identity.xsrf };
  const request: FuzzRequest = { method, url: `${buildPath(route, rnd)}${buildQuery(route, rnd)}`, headers };
  if (route.body || route.multipart || (method !== 'GET' && method !== 'HEAD' && rnd.chance(0.6))) {
    const { payload, contentType } = buildBody(route, rnd);
    if (method !== 'GET' && method !== 'HEAD') {
      request.payload = payload;
      if (contentType) headers['content-type'] = contentType;
    }
  }
  if (rnd.chance(0.15)) Object.assign(headers, rnd.pick(BAD_HEADERS));
  return request;
}

function describeRequest(req: FuzzRequest, res: LightMyRequestResponse): string {
  const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);
  const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${clip(JSON.stringify(v), 120)}`);
  const payload = req.payload === undefined ? '(none)' : clip(JSON.stringify(Buffer.isBuffer(req.payload) ? req.payload.toString('latin1') : req.payload));
  return `${req.method} ${clip(req.url)}\n  ${headers.join('\n  ')}\n  body: ${payload}\n  → ${res.statusCode} ${String(res.headers['content-type'] ?? '')} ${clip(res.body, 300)}`;
}

/**
 * The schemas are the real fix: a value that gets as far as PostgreSQL and is refused there (the error
 * handler's last line of defence answers 400) means a route's schema lacks a building block.
 */
function refusedByDatabase(lines: string[]): string | null {
  const line = lines.find((l) => l.includes('the database refused a value from the request'));
  return line ? `a value the schema let through and the database refused (${/"pgCode":"(\w+)"/.exec(line)?.[1]})` : null;
}

/** What is wrong with an answer to an /api request, or null. */
function problemWithApiAnswer(req: FuzzRequest, res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304 || res.rawPayload.length === 0) return null;
  const type = String(res.headers['content-type'] ?? '');
  // A download route (the statement's CSV) answers its file on success; its refusals are still JSON.
  if (res.statusCode === 200 && new URL(req.url, 'http://x').pathname.endsWith('.csv') && type.startsWith('text/csv')) return null;
  if (!type.startsWith('application/json')) return `content type ${type || '(none)'} instead of JSON`;
  let body: { status?: unknown; message?: unknown };
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'a body that is not JSON';
  }
  if (body?.status === 'OK') return res.statusCode < 400 ? null : `status "OK" with ${res.statusCode}`;
  if (body?.status === 'ERROR') return typeof body.message === 'string' && res.statusCode >= 400 ? null : 'an ERROR without a string message or a 4xx';
  return 'a body outside the envelope';
}

function inject(app: FastifyInstance, req: FuzzRequest, ip: string) {
  return app.inject({
    method: req.method as InjectOptions['method'],
    url: req.url,
    headers: req.headers,
    remoteAddress: ip,
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
}

/** The routes of the OpenAPI document, with their parameters and JSON body schema. */
async function discoverRoutes(app: FastifyInstance): Promise<Route[]> {
  const res = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json() as { servers?: { url: string }[]; paths: Record<string, Record<string, Operation>> };
  const routes: Route[] = [];
  // The document names full paths (health, the CSRF cookie and /api/...): the fuzzing is of the API.
  for (const [fullPath, operations] of Object.entries(doc.paths)) {
    if (!fullPath.startsWith('/api/')) continue;
    const path = fullPath.slice('/api'.length);
    for (const [method, op] of Object.entries(operations)) {
      // The live stream never ends by itself: its guard and envelope are proved in notifications' tests.
      if (path === '/events') continue;
      const content = op.requestBody?.content ?? {};
      routes.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: content['application/json']?.schema,
        multipart: 'multipart/form-data' in content,
      });
    }
  }
  return routes;
}

let t: TestApp;
/** Warnings and errors the app logged: a value the database refused means a schema lacks a rule. */
const logged: string[] = [];
beforeAll(async () => {
  t = await createTestApp({
    seed: true,
    logStream: {
      write(line: string) {
        if (/"level":(40|50|60)/.test(line)) logged.push(line);
      },
    },
  });
});
afterAll(() => t?.close());

/** A browser's cookies and XSRF token: a guest with a session, a registered user or a staff member signed in. */
class Identity {
  client!: TestClient;
  private staff?: { id: number; email: string; password: string };
  constructor(
    readonly kind: 'guest' | 'user' | 'staff',
    private readonly app: FastifyInstance,
  ) {}

  async start() {
    if (this.kind === 'user') {
      this.client = (await registerUser(this.app)).client;
    } else if (this.kind === 'staff') {
      if (!this.staff) {
        const staff = await registerStaff(this.app);
        this.staff = staff;
        this.client = staff.client;
        return;
      }
      // The fuzzing may have blocked, demoted or deleted this very account: it is staff again.
      await this.app.db.update(users).set({ role: 'admin', blockedAt: null, deletedAt: null }).where(eq(users.id, this.staff.id));
      this.client = (await signIn(this.app, this.staff.email, this.staff.password)).client;
    } else {
      this.client = new TestClient(this.app);
      await this.client.csrf();
    }
  }

  get headers() {
    return { cookie: this.client.cookieHeader, xsrf: this.client.cookies.get('XSRF-TOKEN') ?? '' };
  }

  /** After an answer that replaced the session (logout, register, delete), starts again if it was lost. */
  async keep(res: LightMyRequestResponse) {
    if (!res.cookies.some((c) => c.name === 'atelier_session')) return;
    const check = await this.client.get('/api/is-auth');
    const signedIn = check.statusCode === 200 && check.json().payload.authenticated === true;
    if (this.kind === 'guest' || !signedIn) await this.start();
  }
}

/** Sends fuzz requests and keeps what went wrong. */
function fuzzer() {
  const failures: string[] = [];
  let sent = 0;
  const send = async (identity: Identity, req: FuzzRequest) => {
    const before = logged.length;
    const res = await inject(t.app, req, identity.client.ip);
    sent += 1;
    const problem = problemWithApiAnswer(req, res) ?? refusedByDatabase(logged.slice(before));
    if (problem) failures.push(`[${identity.kind}, seed ${SEED}] ${problem}\n${describeRequest(req, res)}`);
    await identity.keep(res);
  };
  return { failures, send, sent: () => sent };
}

/** The back office's routes: only staff get past their guard to the schemas and handlers. */
const isStaffRoute = (route: Route) => route.path.startsWith('/admin/');

// The timeouts leave room for a machine busy with other work (the staff test takes under a minute alone).
describe('fuzzing every API route', () => {
  it('answers malformed requests, as a guest and signed in, with no 5xx and always in the envelope', { timeout: 360_000 }, async () => {
    const routes = await discoverRoutes(t.app);
    expect(routes.length).toBeGreaterThan(25);
    // Seller analytics (issue 20) and its export are among them; the staff view in the next test. So
    // are the buyer's generated images and their downloads (issue 29).
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /seller/analytics',
        'GET /seller/analytics.csv',
        'GET /admin/analytics',
        'GET /admin/analytics.csv',
        'GET /user/generations',
        'GET /user/generations/{id}/download',
      ]),
    );
    // The passkey that finishes a password sign-in, and new recovery codes (issue 29).
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /login/2fa/passkey/options', 'POST /login/2fa/passkey', 'POST /user/2fa/recovery-codes', 'POST /user/step-up']),
    );
    // Notice and action and trader details (issue 33), guests' report included.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /reports', 'GET /reports/{id}', 'POST /reports/{id}/appeal', 'GET /transparency', 'PUT /user/seller-details']),
    );
    // Discount codes, their preview and the cart's purchase with a code (issue 34).
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /seller/discounts',
        'POST /seller/discounts',
        'PATCH /seller/discounts/{id}',
        'DELETE /seller/discounts/{id}',
        'GET /products/{id}/price',
        'POST /cart/purchase',
      ]),
    );
    const identities = [new Identity('guest', t.app), new Identity('user', t.app)];
    for (const identity of identities) await identity.start();

    const { failures, send, sent: sentCount } = fuzzer();
    const [guest, user] = identities as [Identity, Identity];
    for (const route of routes) {
      // Signed in, so guarded routes get past their guard with the bad value (staff routes: the next test).
      if (!isStaffRoute(route)) for (const next of systematicRequests(route, () => user.headers)) await send(user, next());
      for (const identity of [guest, user]) {
        // One sequence per route and identity: a new route does not change the requests of the others.
        const rnd = prng(SEED ^ hash(`${route.method} ${route.path} ${identity.kind}`));
        for (let i = 0; i < PER_ROUTE; i++) await send(identity, buildRequest(route, rnd, identity.headers));
      }
    }
    if (failures.length) console.error(`${failures.length} malformed requests got a wrong answer:\n\n${failures.slice(0, 15).join('\n\n')}`);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(sentCount()).toBeGreaterThanOrEqual(MIN_REQUESTS);
  });
});

describe('fuzzing the staff routes signed in as staff', () => {
  it('answers malformed requests to every back-office route, signed in as staff, with no 5xx and always in the envelope', { timeout: 360_000 }, async () => {
    const routes = (await discoverRoutes(t.app)).filter(isStaffRoute);
    expect(routes.length).toBeGreaterThan(25);
    // The money screen's disputes and receivables (issue 19) are among them.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /admin/disputes', 'GET /admin/receivables']));
    // The report queue, decisions, appeals and DAC7 (issue 33).
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /admin/reports',
        'POST /admin/reports/{id}/decide',
        'POST /admin/reports/{id}/appeal-decide',
        'GET /admin/dac7',
        'GET /admin/dac7.csv',
        'GET /admin/users/{id}/seller-details',
      ]),
    );
    const staff = new Identity('staff', t.app);
    await staff.start();
    const { failures, send, sent } = fuzzer();
    for (const route of routes) {
      for (const next of systematicRequests(route, () => staff.headers)) await send(staff, next());
      const rnd = prng(SEED ^ hash(`${route.method} ${route.path} staff`));
      for (let i = 0; i < STAFF_PER_ROUTE; i++) await send(staff, buildRequest(route, rnd, staff.headers));
    }
    if (failures.length) console.error(`${failures.length} malformed staff requests got a wrong answer:\n\n${failures.slice(0, 15).join('\n\n')}`);
    expect(failures.slice(0, 15)).toEqual([]);
    expect(sent()).toBeGreaterThanOrEqual(routes.length * STAFF_PER_ROUTE);
  });
});

describe('fuzzing the server-rendered pages', () => {
  it('answers a malformed page address with an HTML page, never JSON and never a 5xx', { timeout: 60_000 }, async () => {
    const rnd = prng(SEED ^ hash('pages'));
    const guest = new TestClient(t.app);
    const failures: string[] = [];
    const pages = ['/products/', '/packs/', '/profile/', '/page/', '/products', '/', '/contact', '/email/verify/'];
    for (let i = 0; i < 120; i++) {
      const page = rnd.pick(pages);
      const segment = page.endsWith('/') ? rnd.pick(RAW_VALUES) : '';
      const query = rnd.chance(0.5) ? `?${rnd.pick(['search', 'currency', 'page', 'sort', 'categories_id', 'type'])}=${rnd.pick(RAW_VALUES)}` : '';
      const headers: Record<string, string> = { accept: 'text/html,application/xhtml+xml', cookie: guest.cookieHeader };
      if (rnd.chance(0.2)) headers.cookie = rnd.pick(['selectedCurrency=%00', 'selectedCurrency=ZZZ', 'atelier_session=%', `consent=${'c'.repeat(3000)}`]);
      const req: FuzzRequest = { method: 'GET', url: `${page}${segment}${query}`, headers };
      const res = await inject(t.app, req, guest.ip);
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode >= 500 || !type.startsWith('text/html'))
        failures.push(`${res.statusCode >= 500 ? `status ${res.statusCode}` : `content type ${type}`}\n${describeRequest(req, res)}`);
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
