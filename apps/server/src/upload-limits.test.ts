import type { AddressInfo } from 'node:net';
import { AVATAR_MAX_BYTES, CHAT_ATTACHMENT_MAX_BYTES, OFFER_FILE_MAX_BYTES } from '@atelier/shared';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../test/accounts';
import { chatPair } from '../test/chat';
import { type TestClient, useTestApp } from '../test/test-app';

/**
 * Issue 18 bug 10: an upload over its limit is refused every time. Each upload goes over a real HTTP
 * connection with a chunked body, as a browser streams it, so the multipart parser sees it arrive in
 * pieces; the size of what arrived decides, not the parser's `truncated` flag alone.
 */
const t = useTestApp({ registration: true });
let base: string;
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

const REPEATS = 20;
const CHUNK = 64 * 1024;

/** A multipart body: text fields, then one file part, as FormData sends it. */
function multipartBody(fields: Record<string, string>, file: { field: string; name: string; type: string; data: Buffer }) {
  const boundary = `----limit${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
  );
  const fileStart = parts.reduce((n, p) => n + p.length, 0);
  parts.push(file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}`, fileStart };
}

/**
 * POSTs the body over HTTP in 64 KB chunks (Transfer-Encoding: chunked), with the client's session.
 * Given `splitAt`, a chunk also ends exactly there: the server's parser then receives exactly the
 * limit's worth of the file in one piece and the bytes over it in the next, the case in which its
 * `truncated` flag came too late and a file over the limit got through.
 */
async function postChunked(client: TestClient, path: string, form: { body: Buffer; contentType: string }, splitAt?: number) {
  if (!client.cookies.has('XSRF-TOKEN')) await client.csrf();
  const cuts = new Set<number>();
  for (let at = CHUNK; at < form.body.length; at += CHUNK) cuts.add(at);
  if (splitAt !== undefined) cuts.add(splitAt);
  const ends = [...cuts].sort((a, b) => a - b);
  ends.push(form.body.length);
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const end = ends.shift();
      if (end === undefined) {
        controller.close();
        return;
      }
      controller.enqueue(form.body.subarray(offset, end));
      offset = end;
    },
  });
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader, 'x-xsrf-token': client.cookies.get('XSRF-TOKEN') ?? '', 'content-type': form.contentType },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, json: (await res.json()) as { message?: string; errors?: Record<string, string[]> } };
}

/** A PNG padded with zeros to exactly `size` bytes (image readers ignore what follows the image). */
async function pngOfSize(size: number) {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#884422' } })
    .png()
    .toBuffer();
  return Buffer.concat([png, Buffer.alloc(size - png.length)]);
}

/** Every other try cuts a chunk exactly at the limit; the others arrive in plain 64 KB chunks. */
const splitAtLimit = (form: { fileStart: number }, max: number, attempt: number) => (attempt % 2 === 0 ? form.fileStart + max : undefined);

const AVATAR_TOO_LARGE = 'Image size should be less than 2MB';
const OFFER_TOO_LARGE = 'File size exceeds 20MB limit';
const CHAT_TOO_LARGE = `The attachment may be at most ${CHAT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`;

describe('issue 18 bug 10: upload limits hold every time', () => {
  it('issue 18 bug 10: an avatar one byte over 2 MB is refused 20 times out of 20; exactly 2 MB is not refused for size', async () => {
    const { client } = await registerUser(t.app);
    const over = multipartBody({}, { field: 'avatar', name: 'big.png', type: 'image/png', data: await pngOfSize(AVATAR_MAX_BYTES + 1) });
    const answers = [];
    for (let i = 0; i < REPEATS; i++) answers.push(await postChunked(client, '/api/user/upload-avatar', over, splitAtLimit(over, AVATAR_MAX_BYTES, i)));
    expect(answers.map((a) => [a.status, a.json.errors?.avatar?.[0]])).toEqual(Array(REPEATS).fill([422, AVATAR_TOO_LARGE]));
    const exact = await postChunked(
      client,
      '/api/user/upload-avatar',
      multipartBody({}, { field: 'avatar', name: 'ok.png', type: 'image/png', data: await pngOfSize(AVATAR_MAX_BYTES) }),
    );
    expect(exact.json.errors?.avatar?.[0]).not.toBe(AVATAR_TOO_LARGE);
    expect(exact.status).toBe(200);
  });

  it('issue 18 bug 10: an offer file one byte over 20 MB is refused 20 times out of 20; exactly 20 MB is not refused for size', async () => {
    const { client } = await registerUser(t.app);
    const fields = { title: 'Big work', description: 'A large file.', category_id: '1', price: '10', confirm: '1', keywords: 'big' };
    const over = multipartBody(fields, { field: 'media', name: 'big.png', type: 'image/png', data: await pngOfSize(OFFER_FILE_MAX_BYTES + 1) });
    const answers = [];
    for (let i = 0; i < REPEATS; i++) answers.push(await postChunked(client, '/api/offer/create', over, splitAtLimit(over, OFFER_FILE_MAX_BYTES, i)));
    expect(answers.map((a) => [a.status, a.json.errors?.media?.[0]])).toEqual(Array(REPEATS).fill([422, OFFER_TOO_LARGE]));
    const exact = await postChunked(
      client,
      '/api/offer/create',
      multipartBody(fields, { field: 'media', name: 'ok.png', type: 'image/png', data: await pngOfSize(OFFER_FILE_MAX_BYTES) }),
    );
    expect(exact.json.errors?.media?.[0]).not.toBe(OFFER_TOO_LARGE);
  }, 120_000);

  it('issue 18 bug 10: a chat attachment one byte over 20 MB is refused 20 times out of 20; exactly 20 MB is not refused for size', async () => {
    const { buyer, chatId } = await chatPair(t.app);
    const over = multipartBody(
      { message: 'here it is' },
      { field: 'attachment', name: 'big.png', type: 'image/png', data: await pngOfSize(CHAT_ATTACHMENT_MAX_BYTES + 1) },
    );
    const answers = [];
    for (let i = 0; i < REPEATS; i++)
      answers.push(await postChunked(buyer.client, `/api/chat/${chatId}/messages`, over, splitAtLimit(over, CHAT_ATTACHMENT_MAX_BYTES, i)));
    expect(answers.map((a) => [a.status, a.json.errors?.attachment?.[0]])).toEqual(Array(REPEATS).fill([422, CHAT_TOO_LARGE]));
    const exact = await postChunked(
      buyer.client,
      `/api/chat/${chatId}/messages`,
      multipartBody({ message: 'here it is' }, { field: 'attachment', name: 'ok.png', type: 'image/png', data: await pngOfSize(CHAT_ATTACHMENT_MAX_BYTES) }),
    );
    expect(exact.json.errors?.attachment?.[0]).not.toBe(CHAT_TOO_LARGE);
    expect(exact.status).toBe(200);
  }, 120_000);
});
