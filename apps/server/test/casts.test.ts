import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 31 item 15: a double cast through unknown silences the type checker entirely, so each one that
 * stays says why it is sound in a comment on the line above. Raw SQL rows go through `rowsOf`
 * (db/client.ts) and a transaction is a `Db` as it is, so neither needs one.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const TREES = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.cache']);
const CAST = /\bas\s+unknown\s+as\b/;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries
      .filter((e) => !SKIP.has(e.name))
      .map((e) => {
        const rel = path.posix.join(dir, e.name);
        if (e.isDirectory()) return sourceFiles(rel);
        return Promise.resolve(/\.(ts|tsx|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : []);
      }),
  );
  return nested.flat();
}

/** A line that is a comment or ends one: `//`, a block comment's lines, and JSX's `{/* … *\/}`. */
const isComment = (line: string) => {
  const t = line.trim();
  return t.startsWith('//') || t.startsWith('/*') || t.startsWith('*') || t.startsWith('{/*') || t.endsWith('*/') || t.endsWith('*/}');
};

/** Every cast through unknown whose line above is not a comment, as `file:line`. */
async function unexplainedCasts(): Promise<string[]> {
  const files = (await Promise.all(TREES.map(sourceFiles))).flat();
  const found: string[] = [];
  for (const file of files) {
    const lines = (await readFile(path.join(root, file), 'utf8')).split('\n');
    lines.forEach((line, i) => {
      if (CAST.test(line) && !isComment(lines[i - 1] ?? '')) found.push(`${file}:${i + 1}`);
    });
  }
  return found.sort();
}

describe('casts through unknown (issue 31 item 15)', () => {
  it('each one says why it is sound on the line above', async () => {
    const found = await unexplainedCasts();
    expect(found).toEqual([]);
  });

  it('finds a cast without a reason, and takes one with a reason', () => {
    const cast = ['as', 'unknown', 'as'].join(' ');
    const code = ['const a = 1;', `const b = a ${cast} string;`, '// A reason.', `const c = a ${cast} string;`];
    expect(code.map((line, i) => CAST.test(line) && !isComment(code[i - 1] ?? ''))).toEqual([false, true, false, false]);
  });
});
