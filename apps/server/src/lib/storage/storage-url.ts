/** Where stored files live, from STORAGE_URL (unset: local disk under DATA_DIR). */
export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      /** Prepended to every object key (empty or ending in `/`); public/ and private/ follow it. */
      prefix: string;
      /** A custom S3-compatible endpoint (MinIO, R2, Ceph…); unset means AWS itself. */
      endpoint?: string;
      /** From ?region=; unset falls back to AWS_REGION (AWS) or us-east-1 (custom endpoint). */
      region?: string;
      /** bucket.host or host/bucket addressing; path style by default on custom endpoints. */
      forcePathStyle: boolean;
      /** From the URL's user and password; unset means the AWS SDK's usual chain (AWS_ACCESS_KEY_ID…). */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

const format = 's3://[KEY:SECRET@]bucket[/prefix]?endpoint=https://host:port&region=…';
const knownParams = new Set(['endpoint', 'region', 'forcePathStyle']);

/**
 * Parses STORAGE_URL, e.g. `s3://atelier-files?endpoint=http://127.0.0.1:9000&region=eu-central-1`.
 * Returns the problem as a sentence when the value is unusable (it never repeats the secret).
 */
export function parseStorageUrl(value: string): StorageConfig | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `must look like ${format}` };
  }
  if (url.protocol !== 's3:') return { problem: `only s3:// is supported (${format}); leave it unset for local disk` };
  const bucket = url.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return { problem: `"${bucket}" is not a valid bucket name (${format})` };
  const unknown = [...url.searchParams.keys()].filter((k) => !knownParams.has(k));
  if (unknown.length > 0) return { problem: `unknown option ${unknown.join(', ')}; known: ${[...knownParams].join(', ')}` };
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(endpoint)) {
    return { problem: 'endpoint must be an http(s) address without a path, e.g. endpoint=https://s3.example.com' };
  }
  const style = url.searchParams.get('forcePathStyle');
  if (style !== null && style !== 'true' && style !== 'false') return { problem: 'forcePathStyle must be true or false' };
  const region = url.searchParams.get('region') ?? undefined;
  if (region !== undefined && !/^[a-z0-9-]+$/.test(region)) return { problem: 'region must look like eu-central-1' };
  if ((url.username === '') !== (url.password === '')) return { problem: 'give both the access key and the secret (s3://KEY:SECRET@bucket), or neither' };
  const prefix = decodeURIComponent(url.pathname)
    .split('/')
    .filter((s) => s !== '')
    .join('/');
  if (prefix.split('/').some((s) => s === '.' || s === '..')) return { problem: 'the prefix may not contain . or .. segments' };
  return {
    kind: 's3',
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint: endpoint?.replace(/\/$/, ''),
    region,
    forcePathStyle: style === null ? endpoint !== undefined : style === 'true',
    credentials: url.username ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) } : undefined,
  };
}
