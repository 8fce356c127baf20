import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../test/s3-server';
import { ConfigError, loadConfig } from '../config';
import { registerErrorHandler } from './error-handler';
import {
  type ByteRange,
  createLocalStorage,
  createStorage,
  InvalidStorageKeyError,
  parseRangeHeader,
  parseStorageUrl,
  publicUrl,
  RangeNotSatisfiableError,
  type Storage,
  type StoredObject,
  sendStoredFile,
} from './storage';

const MB = 1024 * 1024;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function bytesOf(file: StoredObject | null): Promise<string> {
  if (!file) throw new Error('expected a file');
  return (await readAll(file.stream)).toString();
}

/** `total` bytes of random data, produced 1 MB at a time, with the hash of what was produced. */
function generatedStream(total: number) {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const chunk = randomBytes(Math.min(MB, total - sent));
      sent += chunk.length;
      hash.update(chunk);
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

async function hashOf(stream: Readable): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { digest: hash.digest('hex'), size };
}

type Backend = { name: string; storage: Storage; outsideFile?: string };

let s3: TestS3Server;
let dataDir: string;
const backends: Backend[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'atelier-storage-'));
  // A file beside the storage folders that no key may reach.
  await writeFile(path.join(dataDir, 'secret.txt'), 'SECRET');
  backends.push({ name: 'local disk', storage: createLocalStorage(dataDir), outsideFile: '../../secret.txt' });
  s3 = await startS3Server();
  const config = loadConfig({ DATA_DIR: dataDir, STORAGE_URL: s3.storageUrl('shop') });
  backends.push({ name: 's3 (s3rver)', storage: await createStorage(config) });
});

afterAll(async () => {
  for (const b of backends) b.storage.close();
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const backendNames = ['local disk', 's3 (s3rver)'];
const backend = (name: string) => {
  const found = backends.find((b) => b.name === name);
  if (!found) throw new Error(`no backend ${name}`);
  return found;
};

describe.each(backendNames)('Storage contract: %s', (name) => {
  const storage = () => backend(name).storage;

  it('stores public and private files on separate sides', async () => {
    await storage().putPublic('products/aurora/preview.txt', Buffer.from('preview bytes'));
    await storage().putPrivate('products/aurora/original.txt', Buffer.from('PAID ORIGINAL'));

    const pub = await storage().openPublic('products/aurora/preview.txt');
    expect(pub).toMatchObject({ size: 13, contentType: 'text/plain; charset=utf-8', start: 0, end: 12, partial: false });
    expect(pub?.etag).toMatch(/^"/);
    expect(pub?.lastModified).toBeInstanceOf(Date);
    expect(await bytesOf(pub)).toBe('preview bytes');
    expect(await bytesOf(await storage().openPrivate('products/aurora/original.txt'))).toBe('PAID ORIGINAL');

    expect(await storage().openPublic('products/aurora/original.txt')).toBeNull();
    expect(await storage().openPrivate('products/aurora/preview.txt')).toBeNull();
    expect(await storage().statPublic('products/aurora/preview.txt')).toMatchObject({ size: 13, contentType: 'text/plain; charset=utf-8' });
    expect(await storage().statPrivate('products/aurora/preview.txt')).toBeNull();
  });

  it('takes the content type from the key, replaces on a second put, and removes', async () => {
    await storage().putPublic('avatars/7/a.webp', Buffer.from('first'));
    await storage().putPublic('avatars/7/a.webp', Buffer.from('second'));
    const file = await storage().openPublic('avatars/7/a.webp');
    expect(file?.contentType).toBe('image/webp');
    expect(await bytesOf(file)).toBe('second');
    expect((await storage().statPublic('avatars/7/a.webp'))?.size).toBe(6);
    await storage().removePublic('avatars/7/a.webp');
    expect(await storage().openPublic('avatars/7/a.webp')).toBeNull();
    await expect(storage().removePublic('avatars/7/a.webp')).resolves.toBeUndefined();
    await storage().putPrivate('misc/blob', Buffer.from([0, 1, 2]));
    expect((await storage().statPrivate('misc/blob'))?.contentType).toBe('application/octet-stream');
  });

  it('answers null for files that do not exist, and for folders', async () => {
    await storage().putPublic('folder/inside.txt', Buffer.from('x'));
    expect(await storage().openPublic('folder/missing.png')).toBeNull();
    expect(await storage().openPrivate('never/stored.zip')).toBeNull();
    expect(await storage().statPublic('folder/missing.png')).toBeNull();
    expect(await storage().openPublic('folder')).toBeNull();
    expect(await storage().openPublic('nothing/here.txt', { start: 0, end: 9 })).toBeNull();
    expect(await storage().openPublic('nothing/here.txt', { suffix: 5 })).toBeNull();
  });

  it('streams a 20 MB upload in and out unchanged', async () => {
    const source = generatedStream(20 * MB);
    await storage().putPrivate('offers/1/original.bin', source.stream, { contentType: 'application/octet-stream' });
    const file = await storage().openPrivate('offers/1/original.bin');
    expect(file).toMatchObject({ size: 20 * MB, start: 0, end: 20 * MB - 1 });
    if (!file) return;
    expect(await hashOf(file.stream)).toEqual({ digest: source.digest(), size: 20 * MB });

    const tail = await storage().openPrivate('offers/1/original.bin', { start: 20 * MB - 10 });
    expect(tail).toMatchObject({ start: 20 * MB - 10, end: 20 * MB - 1, size: 20 * MB, partial: true });
    if (tail) expect((await readAll(tail.stream)).length).toBe(10);
  });

  it('reads byte ranges: first bytes, a suffix, an open end, past the end', async () => {
    await storage().putPrivate('ranges/abc.txt', Buffer.from('0123456789abcdefghij'));
    const open = (range: ByteRange) => storage().openPrivate('ranges/abc.txt', range);

    const first = await open({ start: 0, end: 9 });
    expect(first).toMatchObject({ start: 0, end: 9, size: 20, partial: true });
    expect(await bytesOf(first)).toBe('0123456789');

    const suffix = await open({ suffix: 5 });
    expect(suffix).toMatchObject({ start: 15, end: 19, size: 20 });
    expect(await bytesOf(suffix)).toBe('fghij');

    const openEnd = await open({ start: 10 });
    expect(openEnd).toMatchObject({ start: 10, end: 19, size: 20 });
    expect(await bytesOf(openEnd)).toBe('abcdefghij');

    const clamped = await open({ start: 15, end: 999 });
    expect(clamped).toMatchObject({ start: 15, end: 19 });
    expect(await bytesOf(clamped)).toBe('fghij');

    expect(await bytesOf(await open({ suffix: 500 }))).toBe('0123456789abcdefghij');

    for (const bad of [{ start: 20 }, { start: 500, end: 600 }, { start: 5, end: 2 }, { suffix: 0 }] as ByteRange[]) {
      const error = await open(bad).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error, JSON.stringify(bad)).toBeInstanceOf(RangeNotSatisfiableError);
      expect((error as RangeNotSatisfiableError).size).toBe(20);
    }
  });

  it('keeps an empty file empty', async () => {
    await storage().putPublic('empty/nothing.txt', Buffer.alloc(0));
    const file = await storage().openPublic('empty/nothing.txt');
    expect(file).toMatchObject({ size: 0, start: 0, end: -1, partial: false });
    expect(await bytesOf(file)).toBe('');
    await expect(storage().openPublic('empty/nothing.txt', { start: 0 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('round-trips keys with spaces, Unicode and URL characters', async () => {
    const key = 'docs/naïve résumé + 100% ?#&=.txt';
    await storage().putPublic(key, Buffer.from('escaped'));
    expect(await bytesOf(await storage().openPublic(key))).toBe('escaped');
    expect(await storage().openPublic('docs/naïve résumé   100% ?#&=.txt')).toBeNull();
    expect(publicUrl(key)).toBe('/storage/docs/na%C3%AFve%20r%C3%A9sum%C3%A9%20%2B%20100%25%20%3F%23%26%3D.txt');
  });

  it('refuses keys that could escape their side', async () => {
    await storage().putPrivate('paid/original.txt', Buffer.from('PAID'));
    const bad = ['../private/paid/original.txt', 'x/../../private/paid/original.txt', '/etc/passwd', 'a//b', './a', 'a/./b', 'a\0b', 'a\\b', ''];
    for (const key of bad) {
      expect(await storage().openPublic(key), key).toBeNull();
      expect(await storage().statPublic(key), key).toBeNull();
      await expect(storage().putPublic(key, Buffer.from('x')), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage().removePublic(key), key).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    const outside = backend(name).outsideFile;
    if (outside) expect(await storage().openPublic(outside)).toBeNull();
    expect(await bytesOf(await storage().openPrivate('paid/original.txt'))).toBe('PAID');
  });
});

describe('S3 storage', () => {
  it('keeps the content type given at upload and puts public and private under two prefixes of the bucket', async () => {
    const storage = backend('s3 (s3rver)').storage;
    await storage.putPublic('uploads/photo', Buffer.from('raw'), { contentType: 'image/png' });
    expect((await storage.openPublic('uploads/photo'))?.contentType).toBe('image/png');

    await storage.putPrivate('uploads/secret.txt', Buffer.from('hidden'));
    // The bucket itself, as any S3 client lists it: everything under the URL's prefix, then public/ or private/.
    const { client } = storage as Storage & { client: S3Client };
    const listed = await client.send(new ListObjectsV2Command({ Bucket: 'atelier-test', Prefix: 'shop/' }));
    const keys = (listed.Contents ?? []).map((o) => o.Key);
    expect(keys).toEqual(expect.arrayContaining(['shop/public/uploads/photo', 'shop/private/uploads/secret.txt', 'shop/private/paid/original.txt']));
    expect(keys.every((k) => k?.startsWith('shop/public/') || k?.startsWith('shop/private/'))).toBe(true);
  });
});

describe('STORAGE_URL', () => {
  it('is local disk when unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir }).storage).toEqual({ kind: 'local' });
  });

  it('reads bucket, prefix, endpoint, region and credentials; path style on custom endpoints', () => {
    expect(parseStorageUrl('s3://atelier-files/prod/eu?endpoint=http://127.0.0.1:9000&region=eu-central-1')).toEqual({
      kind: 's3',
      bucket: 'atelier-files',
      prefix: 'prod/eu/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-central-1',
      forcePathStyle: true,
      credentials: undefined,
    });
    expect(parseStorageUrl('s3://AKIA1:se%2Fcr%2Bet@atelier-files')).toEqual({
      kind: 's3',
      bucket: 'atelier-files',
      prefix: '',
      endpoint: undefined,
      region: undefined,
      forcePathStyle: false,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'se/cr+et' },
    });
  });

  it('stops the start with a clear message for a bad value, without repeating the secret', () => {
    const problemsOf = (value: string) => {
      try {
        loadConfig({ DATA_DIR: dataDir, STORAGE_URL: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems.join('\n');
      }
      throw new Error(`${value} was accepted`);
    };
    expect(problemsOf('/var/files')).toMatch(/^STORAGE_URL: must look like s3:\/\/\[KEY:SECRET@\]bucket/m);
    expect(problemsOf('https://bucket.example.com')).toMatch(/^STORAGE_URL: only s3:\/\/ is supported/m);
    expect(problemsOf('s3://Bad_Bucket')).toMatch(/^STORAGE_URL: "Bad_Bucket" is not a valid bucket name/m);
    expect(problemsOf('s3://bucket?endpoint=ftp://x')).toMatch(/^STORAGE_URL: endpoint must be an http\(s\) address/m);
    expect(problemsOf('s3://bucket?endpoit=http://x')).toMatch(/^STORAGE_URL: unknown option endpoit/m);
    const withSecret = problemsOf('s3://KEY:TOPSECRET@bucket?region=EU');
    expect(withSecret).toMatch(/^STORAGE_URL: region must look like eu-central-1/m);
    expect(withSecret).not.toContain('TOPSECRET');
  });
});

describe('Range header', () => {
  it('honours one bytes range and ignores what it cannot use', () => {
    expect(parseRangeHeader('bytes=0-9')).toEqual({ start: 0, end: 9 });
    expect(parseRangeHeader('bytes=-5')).toEqual({ suffix: 5 });
    expect(parseRangeHeader('bytes=10-')).toEqual({ start: 10 });
    expect(parseRangeHeader('bytes=9-2')).toEqual({ start: 9, end: 2 });
    for (const ignored of [undefined, '', 'bytes=-', 'items=0-9', 'bytes=0-1,5-6', 'bytes=a-b', 'bytes=1.5-2']) {
      expect(parseRangeHeader(ignored), String(ignored)).toBeUndefined();
    }
  });
});

describe.each(backendNames)('sendStoredFile: private downloads from %s', (name) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const storage = backend(name).storage;
    await storage.putPrivate('orders/9/original.txt', Buffer.from('0123456789abcdefghij'));
    app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/download/*', async (request, reply) =>
      sendStoredFile(reply, storage, (request.params as { '*': string })['*'], { disposition: 'attachment', filename: 'Aurora – fjords "final".txt' }),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends the whole file as an attachment that no cache keeps', async () => {
    const res = await app.inject({ url: '/download/orders/9/original.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('0123456789abcdefghij');
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': '20',
      'accept-ranges': 'bytes',
      'cache-control': 'private, no-store',
      'content-disposition': `attachment; filename="Aurora  fjords _final_.txt"; filename*=UTF-8''Aurora%20%E2%80%93%20fjords%20%22final%22.txt`,
    });
    expect(res.headers.etag).toMatch(/^"/);
    expect(res.headers['last-modified']).toMatch(/GMT$/);
  });

  it('resumes with Range: 206 with Content-Range, 416 with the size', async () => {
    const cases: [string, string, string][] = [
      ['bytes=0-9', '0123456789', 'bytes 0-9/20'],
      ['bytes=-5', 'fghij', 'bytes 15-19/20'],
      ['bytes=10-', 'abcdefghij', 'bytes 10-19/20'],
    ];
    for (const [range, body, contentRange] of cases) {
      const res = await app.inject({ url: '/download/orders/9/original.txt', headers: { range } });
      expect(res.statusCode, range).toBe(206);
      expect(res.body).toBe(body);
      expect(res.headers['content-range']).toBe(contentRange);
      expect(res.headers['content-length']).toBe(String(body.length));
    }
    for (const range of ['bytes=20-', 'bytes=9-2', 'bytes=-0']) {
      const res = await app.inject({ url: '/download/orders/9/original.txt', headers: { range } });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range']).toBe('bytes */20');
      expect(res.json()).toEqual({ status: 'ERROR', message: 'The requested range is not satisfiable.' });
    }
    const ignored = await app.inject({ url: '/download/orders/9/original.txt', headers: { range: 'bytes=0-1,4-5' } });
    expect(ignored.statusCode).toBe(200);
    expect(ignored.body).toBe('0123456789abcdefghij');
  });

  it('drops the Range when If-Range names an older version', async () => {
    const first = await app.inject({ url: '/download/orders/9/original.txt' });
    const same = await app.inject({ url: '/download/orders/9/original.txt', headers: { range: 'bytes=0-3', 'if-range': String(first.headers.etag) } });
    expect(same.statusCode).toBe(206);
    expect(same.body).toBe('0123');
    const stale = await app.inject({ url: '/download/orders/9/original.txt', headers: { range: 'bytes=0-3', 'if-range': '"an-old-version"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe('0123456789abcdefghij');
  });

  it('answers HEAD without the body and 404 for a missing file', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/download/orders/9/original.txt' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('20');
    expect(head.body).toBe('');
    const missing = await app.inject({ url: '/download/orders/9/missing.txt' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 'ERROR', message: 'This file does not exist.' });
  });
});
