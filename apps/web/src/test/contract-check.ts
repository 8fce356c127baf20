import openapiText from '@atelier/shared/openapi.json?raw';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';

/**
 * The contract the fake API answers are checked against: the OpenAPI document the server publishes
 * (packages/shared/openapi.json, generated from the routes' response schemas and checked fresh by the
 * server's openapi.test.ts). fakeApi fails a test whose fixture answers a route the document lacks,
 * or answers something the route's 2xx JSON schema rejects, so a fixture cannot drift from what the
 * server sends. A route that answers no JSON (a zip, a CSV, a 204) is not checked.
 */
type JsonSchema = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> };
type Document = { paths: Record<string, Record<string, Operation>> };

const document = JSON.parse(openapiText) as Document;
// The document's schemas are JSON Schema 2020-12 with OpenAPI's own words beside them (formats unchecked).
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

type Entry = { key: string; method: string; pattern: RegExp; params: number; schema?: JsonSchema; validate?: ValidateFunction };

const entries: Entry[] = Object.entries(document.paths)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const success = Object.entries(op.responses ?? {}).find(([code]) => code.startsWith('2'))?.[1];
      const segments = path.split('/').map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      return {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${segments.join('/')}$`),
        params: path.split('/{').length - 1,
        schema: success?.content?.['application/json']?.schema,
      };
    }),
  )
  // A fixed path wins over a pattern (/api/products/catalog over /api/products/{slug}/info), as in the server's router.
  .sort((a, b) => a.params - b.params);

/** The contract entry for a request, by method and path (`GET /api/products/7/reviews` → `GET /api/products/{id}/reviews`). */
export function contractFor(method: string, path: string): Entry | undefined {
  return entries.find((e) => e.method === method && e.pattern.test(path));
}

const where = (e: ErrorObject) => e.instancePath.replace(/^\//, '').replaceAll('/', '.');

/**
 * What is wrong with a fake 2xx JSON answer, measured against the document's schema of its route, or
 * undefined when it is what the server could send. A route missing from the document is a problem too.
 */
export function contractProblem(method: string, path: string, status: number, body: unknown): string | undefined {
  if (status < 200 || status >= 300) return undefined;
  const entry = contractFor(method, path);
  if (!entry) return `No route ${method} ${path} in the OpenAPI document (packages/shared/openapi.json); run \`npm run api:generate\` after adding it.`;
  if (!entry.schema) return undefined;
  entry.validate ??= ajv.compile(entry.schema);
  if (entry.validate(body)) return undefined;
  const errors = entry.validate.errors ?? [];
  // A field the schema does not name: the server's response schema would strip it.
  const extra = errors.filter((e) => e.keyword === 'additionalProperties').map((e) => [where(e), e.params.additionalProperty].filter(Boolean).join('.'));
  const broken = errors.filter((e) => e.keyword !== 'additionalProperties');
  if (broken.length === 0)
    return `The fake answer to ${method} ${path} has fields the contract of ${entry.key} lacks (the server would strip them): ${extra.join(', ')}`;
  const lines = broken.map(
    (e) => `✖ ${e.message ?? e.keyword}${e.keyword === 'enum' ? `: ${JSON.stringify(e.params.allowedValues)}` : ''}\n  → at ${where(e) || '(root)'}`,
  );
  return `The fake answer to ${method} ${path} breaks the contract of ${entry.key}:\n${[...new Set(lines)].join('\n')}`;
}

const problems: string[] = [];

/** Checks a fake answer (a 2xx JSON Response) and records what is wrong; the test fails after it runs. */
export async function checkAnswer(method: string, path: string, answer: Response): Promise<void> {
  if (!answer.headers.get('content-type')?.includes('application/json')) return;
  const text = await answer.clone().text();
  if (!text) return;
  const problem = contractProblem(method, path, answer.status, JSON.parse(text));
  if (problem) problems.push(problem);
}

/** The problems recorded since the last call, emptying the list (setup.ts fails the test when there are any). */
export function takeContractProblems(): string[] {
  return problems.splice(0);
}
