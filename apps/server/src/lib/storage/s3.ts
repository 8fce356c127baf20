import type { Readable } from 'node:stream';
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import {
  assertValidStorageKey,
  type ByteRange,
  contentTypeFor,
  isValidStorageKey,
  type ObjectInfo,
  RangeNotSatisfiableError,
  resolveRange,
  type Storage,
  type StoredObject,
  type Visibility,
} from './core';
import type { StorageConfig } from './storage-url';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

/** Streams larger than one part go up as a multipart upload, two parts in flight: memory stays near 16 MB. */
const PART_SIZE = 8 * 1024 * 1024;

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/** `bytes 0-9/100` → its numbers; undefined when the server sent no range. */
function parseContentRange(header: string | undefined): { start: number; end: number; size: number } | undefined {
  const match = header ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header) : null;
  return match ? { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) } : undefined;
}

/**
 * Files in one S3-compatible bucket, public ones under `<prefix>public/` and private ones under
 * `<prefix>private/`. Nothing is served from the bucket directly: the app streams public files at
 * /storage/... and private ones through handlers that check access, so the bucket stays private.
 */
export async function createS3Storage(config: S3Config): Promise<Storage & { readonly client: S3Client }> {
  // Loaded here rather than at the top (which the bundle would hoist): the SDK takes a second or more
  // to load, and a server on local disk never needs it.
  const [{ DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client }, { Upload }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
  ]);
  const custom = config.endpoint !== undefined;
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region ?? (custom ? 'us-east-1' : undefined),
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
    // Checksum headers and aws-chunked uploads only where S3 needs them: many compatible servers know neither.
    ...(custom ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
  });
  const Bucket = config.bucket;
  const objectKey = (visibility: Visibility, key: string) => `${config.prefix}${visibility}/${key}`;

  async function put(visibility: Visibility, key: string, data: Buffer | Readable, contentType?: string): Promise<string> {
    assertValidStorageKey(key);
    const params = { Bucket, Key: objectKey(visibility, key), ContentType: contentType ?? contentTypeFor(key) };
    if (Buffer.isBuffer(data)) {
      await client.send(new PutObjectCommand({ ...params, Body: data, ContentLength: data.length }));
    } else {
      await new Upload({ client, params: { ...params, Body: data }, partSize: PART_SIZE, queueSize: 2, leavePartsOnError: false }).done();
    }
    return key;
  }

  async function statObject(visibility: Visibility, key: string): Promise<ObjectInfo | null> {
    if (!isValidStorageKey(key)) return null;
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(visibility, key) }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? contentTypeFor(key), etag: head.ETag, lastModified: head.LastModified };
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  async function get(visibility: Visibility, key: string, rangeHeader?: string): Promise<GetObjectCommandOutput | null> {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: objectKey(visibility, key), Range: rangeHeader }));
    } catch (err) {
      if (statusOf(err) === 404) return null;
      throw err;
    }
  }

  async function openObject(visibility: Visibility, key: string, range?: ByteRange): Promise<StoredObject | null> {
    if (!isValidStorageKey(key)) return null;
    let rangeHeader: string | undefined;
    if (range) {
      // Suffix and backwards ranges are worked out against the size here: not every S3-compatible
      // server understands `bytes=-N`, and S3 itself ignores a malformed range instead of refusing it.
      if ('suffix' in range || (range.end !== undefined && range.end < range.start)) {
        const info = await statObject(visibility, key);
        if (!info) return null;
        const { start, end } = resolveRange(range, info.size);
        rangeHeader = `bytes=${start}-${end}`;
      } else {
        rangeHeader = `bytes=${range.start}-${range.end ?? ''}`;
      }
    }
    let res: GetObjectCommandOutput | null;
    try {
      res = await get(visibility, key, rangeHeader);
    } catch (err) {
      if (statusOf(err) !== 416) throw err;
      const info = await statObject(visibility, key);
      if (!info) return null;
      throw new RangeNotSatisfiableError(info.size);
    }
    if (!res?.Body) return null;
    const stream = res.Body as Readable;
    const contentRange = parseContentRange(res.ContentRange);
    const size = contentRange?.size ?? res.ContentLength ?? 0;
    if (contentRange && contentRange.end >= contentRange.size) {
      // Some compatible servers answer a range of an empty object with 206 instead of 416.
      stream.destroy();
      throw new RangeNotSatisfiableError(contentRange.size);
    }
    return {
      stream,
      size,
      contentType: res.ContentType ?? contentTypeFor(key),
      etag: res.ETag,
      lastModified: res.LastModified,
      start: contentRange?.start ?? 0,
      end: contentRange?.end ?? size - 1,
      partial: contentRange !== undefined,
    };
  }

  async function remove(visibility: Visibility, key: string): Promise<void> {
    assertValidStorageKey(key);
    await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(visibility, key) }));
  }

  return {
    kind: 's3',
    client,
    putPublic: (key, data, opts) => put('public', key, data, opts?.contentType),
    putPrivate: (key, data, opts) => put('private', key, data, opts?.contentType),
    openPublic: (key, range) => openObject('public', key, range),
    openPrivate: (key, range) => openObject('private', key, range),
    statPublic: (key) => statObject('public', key),
    statPrivate: (key) => statObject('private', key),
    removePublic: (key) => remove('public', key),
    removePrivate: (key) => remove('private', key),
    close: () => client.destroy(),
  };
}
