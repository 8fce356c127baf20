import type { Storage } from './core';
import { createLocalStorage } from './local';
import { createS3Storage } from './s3';
import type { StorageConfig } from './storage-url';

export * from './core';
export { createLocalStorage, type LocalStorage } from './local';
export { type SendStoredFileOptions, sendStoredFile } from './send-stored-file';
export { parseStorageUrl, type StorageConfig } from './storage-url';

/** The storage that the configuration names; an S3 one fails here, at start, when it has no region. */
export async function createStorage(config: { storage: StorageConfig; dataDir: string }): Promise<Storage> {
  if (config.storage.kind === 'local') return createLocalStorage(config.dataDir);
  const storage = await createS3Storage(config.storage);
  try {
    await storage.client.config.region();
  } catch {
    throw new Error('STORAGE_URL names no region: add ?region=… to it or set AWS_REGION.');
  }
  return storage;
}

/** Public URL path of a public storage key (SPEC: files under the storage base of the API host). */
export function publicUrl(key: string | null | undefined): string | null {
  return key ? `/storage/${key.split('/').map(encodeURIComponent).join('/')}` : null;
}
