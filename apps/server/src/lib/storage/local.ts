import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { type FileHandle, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidStorageKey,
  type ByteRange,
  contentTypeFor,
  isValidStorageKey,
  type ObjectInfo,
  resolveRange,
  type Storage,
  type StoredObject,
} from './core';

export type LocalStorage = Storage & {
  /** Folders under DATA_DIR/storage holding the two kinds of files. */
  readonly publicRoot: string;
  readonly privateRoot: string;
};

/** The full path of a key under root, or null when the key could escape it. */
function pathOf(root: string, key: string): string | null {
  if (!isValidStorageKey(key)) return null;
  const full = path.resolve(root, key);
  return full.startsWith(root + path.sep) ? full : null;
}

function infoOf(key: string, size: number, mtime: Date): ObjectInfo {
  // Like nginx: size and modification time, so every server sharing one folder gives the same tag.
  return { size, contentType: contentTypeFor(key), etag: `"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`, lastModified: mtime };
}

/** Files on this machine's disk, under DATA_DIR/storage/{public,private}. */
export function createLocalStorage(dataDir: string): LocalStorage {
  const publicRoot = path.join(path.resolve(dataDir), 'storage', 'public');
  const privateRoot = path.join(path.resolve(dataDir), 'storage', 'private');
  mkdirSync(publicRoot, { recursive: true });
  mkdirSync(privateRoot, { recursive: true });

  async function put(root: string, key: string, data: Buffer | Readable): Promise<string> {
    assertValidStorageKey(key);
    const full = pathOf(root, key);
    if (!full) throw new Error('Invalid storage key.');
    await mkdir(path.dirname(full), { recursive: true });
    // Written beside and renamed into place: a reader never sees half a file.
    const temp = `${full}.${randomBytes(6).toString('hex')}.part`;
    try {
      if (Buffer.isBuffer(data)) await writeFile(temp, data);
      else await pipeline(data, createWriteStream(temp));
      await rename(temp, full);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return key;
  }

  async function openFile(root: string, key: string, range?: ByteRange): Promise<StoredObject | null> {
    const full = pathOf(root, key);
    if (!full) return null;
    let handle: FileHandle;
    try {
      handle = await open(full, 'r');
    } catch {
      return null;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) {
        await handle.close();
        return null;
      }
      const size = stats.size;
      const { start, end } = range ? resolveRange(range, size) : { start: 0, end: size - 1 };
      const stream = size === 0 ? Readable.from([]) : handle.createReadStream({ start, end });
      if (size === 0) await handle.close();
      return { ...infoOf(key, size, stats.mtime), stream, start, end, partial: range !== undefined };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async function statFile(root: string, key: string): Promise<ObjectInfo | null> {
    const full = pathOf(root, key);
    if (!full) return null;
    try {
      const stats = await stat(full);
      return stats.isFile() ? infoOf(key, stats.size, stats.mtime) : null;
    } catch {
      return null;
    }
  }

  async function remove(root: string, key: string): Promise<void> {
    assertValidStorageKey(key);
    const full = pathOf(root, key);
    if (full) await rm(full, { force: true });
  }

  return {
    kind: 'local',
    publicRoot,
    privateRoot,
    putPublic: (key, data) => put(publicRoot, key, data),
    putPrivate: (key, data) => put(privateRoot, key, data),
    openPublic: (key, range) => openFile(publicRoot, key, range),
    openPrivate: (key, range) => openFile(privateRoot, key, range),
    statPublic: (key) => statFile(publicRoot, key),
    statPrivate: (key) => statFile(privateRoot, key),
    removePublic: (key) => remove(publicRoot, key),
    removePrivate: (key) => remove(privateRoot, key),
    close: () => {},
  };
}
