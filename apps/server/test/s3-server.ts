import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export type TestS3Server = {
  endpoint: string;
  /** A STORAGE_URL for the bucket (with s3rver's fixed test keys), optionally under a prefix. */
  storageUrl(prefix?: string): string;
  close(): Promise<void>;
};

/**
 * A real S3-protocol server (s3rver) in this process, on a free loopback port, with one empty
 * bucket kept in a temporary folder. Signatures are checked with its fixed keys S3RVER/S3RVER.
 */
export async function startS3Server(bucket = 'atelier-test'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'atelier-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    storageUrl: (prefix = '') => `s3://S3RVER:S3RVER@${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
