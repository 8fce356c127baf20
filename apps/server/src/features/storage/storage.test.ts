import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../../test/s3-server';
import { createTestApp, type TestApp, useTestApp } from '../../../test/test-app';
import { publicUrl } from '../../lib/storage';

const notThere = { status: 'ERROR', message: 'This file does not exist.' };

describe('GET /storage/* on local disk', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await t.app.storage.putPublic('products/x/preview.txt', Buffer.from('0123456789abcdefghij'));
    await t.app.storage.putPrivate('products/x/original.txt', Buffer.from('PAID CONTENT'));
  });

  it('streams a public file with its type, length, validators and a year of caching', async () => {
    const res = await t.app.inject({ url: '/storage/products/x/preview.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('0123456789abcdefghij');
    expect(res.headers).toMatchObject({
      'content-type': 'text/plain; charset=utf-8',
      'content-length': '20',
      'cache-control': 'public, max-age=31536000, immutable',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers.etag).toMatch(/^"/);
    expect(res.headers['last-modified']).toMatch(/GMT$/);

    const again = await t.app.inject({ url: '/storage/products/x/preview.txt', headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers Range with 206 and an impossible one with 416', async () => {
    const part = await t.app.inject({ url: '/storage/products/x/preview.txt', headers: { range: 'bytes=-5' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('fghij');
    expect(part.headers['content-range']).toBe('bytes 15-19/20');
    const beyond = await t.app.inject({ url: '/storage/products/x/preview.txt', headers: { range: 'bytes=20-' } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */20');
  });

  it('answers HEAD with the headers only', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/storage/products/x/preview.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('20');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('');
  });

  it('serves keys with escaped characters at their public URL', async () => {
    const key = 'products/y/naïve preview #1.txt';
    await t.app.storage.putPublic(key, Buffer.from('escaped'));
    const res = await t.app.inject({ url: publicUrl(key) ?? '' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('escaped');
  });

  it('never serves private files, folders or keys that try to climb out: 404', async () => {
    for (const url of [
      '/storage/products/x/original.txt',
      '/storage/..%2fprivate/products/x/original.txt',
      '/storage/private/products/x/original.txt',
      '/storage/products/x/preview.txt%00.png',
      '/storage/products//x/preview.txt',
      '/storage/products/x',
      '/storage/',
      '/storage/products/x/missing.png',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('PAID CONTENT');
      expect(res.json(), url).toEqual(notThere);
    }
    // `..` and `%2e%2e` are resolved before the request is sent: these ask for /private/…, a page of the web app.
    for (const url of [
      '/storage/../private/products/x/original.txt',
      '/storage/%2e%2e/private/products/x/original.txt',
      '/storage/x/%2e%2e/%2e%2e/private/products/x/original.txt',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.body, url).not.toContain('PAID CONTENT');
    }
  });
});

describe('two app servers sharing one S3 bucket', () => {
  let s3: TestS3Server;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    const env = { STORAGE_URL: s3.storageUrl('atelier') };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await s3?.close();
  });

  it('serves from server B a file that server A stored, whole and in ranges', async () => {
    expect(a.app.storage.kind).toBe('s3');
    const image = randomBytes(300_000);
    await a.app.storage.putPublic('products/shared/preview.webp', image);

    const res = await b.app.inject({ url: '/storage/products/shared/preview.webp' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(image)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/webp',
      'content-length': '300000',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(res.headers.etag).toMatch(/^"/);

    const part = await b.app.inject({ url: '/storage/products/shared/preview.webp', headers: { range: 'bytes=0-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 0-9/300000');
    expect(part.headers['content-length']).toBe('10');
    expect(part.rawPayload.equals(image.subarray(0, 10))).toBe(true);

    const tail = await b.app.inject({ url: '/storage/products/shared/preview.webp', headers: { range: 'bytes=-5' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(image.subarray(-5))).toBe(true);

    const beyond = await b.app.inject({ url: '/storage/products/shared/preview.webp', headers: { range: 'bytes=300000-' } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */300000');
  });

  it('keeps private files private on every server, and a removal shows everywhere', async () => {
    await a.app.storage.putPrivate('products/shared/original.txt', Buffer.from('PAID CONTENT'));
    for (const url of [
      '/storage/products/shared/original.txt',
      '/storage/..%2fprivate/products/shared/original.txt',
      '/storage/x/..%2F..%2Fprivate/products/shared/original.txt',
    ]) {
      const res = await b.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('PAID CONTENT');
    }
    await b.app.storage.removePublic('products/shared/preview.webp');
    expect((await a.app.inject({ url: '/storage/products/shared/preview.webp' })).statusCode).toBe(404);
  });
});
