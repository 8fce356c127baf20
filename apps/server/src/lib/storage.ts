import { createReadStream, mkdirSync } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where files live. Public files (previews, avatars) are served under /storage/...;
 * private files (originals that buyers pay for) are only streamed by handlers that check access.
 * A second implementation (S3) plugs in here when one machine's disk is not enough.
 */
export interface Storage {
  putPublic(key: string, data: Buffer): Promise<string>;
  putPrivate(key: string, data: Buffer): Promise<string>;
  openPrivate(key: string): Promise<{ stream: Readable; size: number } | null>;
  removePublic(key: string): Promise<void>;
  removePrivate(key: string): Promise<void>;
  /** Folder served under /storage by the local implementation. */
  readonly publicRoot: string;
}

/** Keys are relative paths made by the server; this refuses anything that could escape the root. */
function safeJoin(root: string, key: string): string {
  const full = path.resolve(root, key);
  if (!full.startsWith(root + path.sep)) throw new Error(`Invalid storage key: ${key}`);
  return full;
}

export function createLocalStorage(dataDir: string): Storage {
  const publicRoot = path.join(dataDir, 'storage', 'public');
  const privateRoot = path.join(dataDir, 'storage', 'private');
  mkdirSync(publicRoot, { recursive: true });
  mkdirSync(privateRoot, { recursive: true });
  async function put(root: string, key: string, data: Buffer) {
    const full = safeJoin(root, key);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, data);
    return key;
  }
  return {
    publicRoot,
    putPublic: (key, data) => put(publicRoot, key, data),
    putPrivate: (key, data) => put(privateRoot, key, data),
    async openPrivate(key) {
      const full = safeJoin(privateRoot, key);
      try {
        const info = await stat(full);
        return { stream: createReadStream(full), size: info.size };
      } catch {
        return null;
      }
    },
    removePublic: (key) => rm(safeJoin(publicRoot, key), { force: true }),
    removePrivate: (key) => rm(safeJoin(privateRoot, key), { force: true }),
  };
}

/** Public URL path of a public storage key (SPEC: files under the storage base of the API host). */
export function publicUrl(key: string | null | undefined): string | null {
  return key ? `/storage/${key}` : null;
}
