import { z } from 'zod';
import { contract } from './contract';

type Entry = { key: string; method: string; pattern: RegExp; params: number; schema: z.ZodType };

const entries: Entry[] = Object.entries(contract)
  .map(([key, schema]) => {
    const [method = '', path = ''] = key.split(' ');
    const segments = path.split('/').map((s) => (s.startsWith(':') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    return { key, method, pattern: new RegExp(`^${segments.join('/')}$`), params: path.split('/:').length - 1, schema };
  })
  // A fixed path wins over a pattern (/api/products/catalog over /api/products/:slug/info), as in the server's router.
  .sort((a, b) => a.params - b.params);

/** The contract entry for a request, by method and path (`GET /api/products/7/reviews` → `GET /api/products/:id/reviews`). */
export function contractFor(method: string, path: string): Entry | undefined {
  return entries.find((e) => e.method === method && e.pattern.test(path));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths of fields the answer has and the parsed value dropped: the server's response schema would strip them. */
function strippedFields(sent: unknown, kept: unknown, at = ''): string[] {
  if (Array.isArray(sent) && Array.isArray(kept)) return sent.flatMap((item, i) => strippedFields(item, kept[i], `${at}[${i}]`));
  if (!isPlainObject(sent) || !isPlainObject(kept)) return [];
  return Object.keys(sent).flatMap((k) => (k in kept ? strippedFields(sent[k], kept[k], at ? `${at}.${k}` : k) : [at ? `${at}.${k}` : k]));
}

/**
 * What is wrong with a fake 2xx JSON answer, measured against the shared schema of its route, or
 * undefined when it is what the server could send. A route missing from the contract is a problem too,
 * so the map stays complete.
 */
export function contractProblem(method: string, path: string, status: number, body: unknown): string | undefined {
  if (status < 200 || status >= 300) return undefined;
  const entry = contractFor(method, path);
  if (!entry) return `No contract for ${method} ${path}; add its shared response schema to apps/web/src/test/contract.ts.`;
  const result = entry.schema.safeParse(body);
  if (!result.success) return `The fake answer to ${method} ${path} breaks the contract of ${entry.key}:\n${z.prettifyError(result.error)}`;
  const extra = strippedFields(body, result.data);
  if (extra.length)
    return `The fake answer to ${method} ${path} has fields the contract of ${entry.key} lacks (the server would strip them): ${extra.join(', ')}`;
  return undefined;
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
