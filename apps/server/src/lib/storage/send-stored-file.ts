import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { notFound } from '../app-error';
import { type ByteRange, type ObjectInfo, parseRangeHeader, RangeNotSatisfiableError, type Storage, type StoredObject, type Visibility } from './core';

export type SendStoredFileOptions = {
  /** Which side of the storage the key is on; private unless said otherwise. */
  visibility?: Visibility;
  /** `attachment` makes the browser save the file (downloads); `inline` shows it. Unset sends no header. */
  disposition?: 'attachment' | 'inline';
  /** The name the browser offers when saving; any Unicode is fine. */
  filename?: string;
  /** Defaults: a year and immutable for public files (their keys change when the bytes do); never stored for private ones. */
  cacheControl?: string;
  /** The 404 message when there is no such file. */
  notFoundMessage?: string;
};

/** `attachment; filename="naive.txt"; filename*=UTF-8''na%C3%AFve.txt` (RFC 6266 with an ASCII fallback). */
export function contentDisposition(disposition: 'attachment' | 'inline', filename?: string): string {
  if (!filename) return disposition;
  const fallback =
    filename
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%/]/g, '_') || 'download';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** If-None-Match / If-Range hold a list of tags (or one); weak tags never match a strong comparison. */
function tagMatches(header: string, etag: string | undefined, weakOk: boolean): boolean {
  if (!etag) return false;
  const bare = (tag: string) => (weakOk ? tag.replace(/^W\//, '') : tag);
  return header.split(',').some((candidate) => {
    const c = candidate.trim();
    return c === '*' || bare(c) === bare(etag);
  });
}

/** If-Range: the Range only stands when the client's validator still names this version of the file. */
function rangeStillValid(ifRange: string, info: ObjectInfo): boolean {
  if (ifRange.startsWith('"')) return !info.etag?.startsWith('W/') && tagMatches(ifRange, info.etag, false);
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && info.lastModified !== undefined && Math.floor(info.lastModified.getTime() / 1000) * 1000 === date;
}

/**
 * Streams a stored file as the answer, whatever the backend: Content-Type, Content-Length, ETag,
 * Last-Modified, Range (206, or 416 with the size), If-None-Match (304), HEAD without the body.
 * Handlers call it after checking access: `return sendStoredFile(reply, app.storage, key, { disposition: 'attachment', filename })`.
 * Mark such a route `compress: false` if partial downloads must keep their Content-Length on text files.
 */
export async function sendStoredFile(reply: FastifyReply, storage: Storage, key: string, opts: SendStoredFileOptions = {}): Promise<FastifyReply> {
  const request = reply.request;
  const visibility = opts.visibility ?? 'private';
  const open = (range?: ByteRange) => (visibility === 'public' ? storage.openPublic(key, range) : storage.openPrivate(key, range));
  const missing = () => notFound(opts.notFoundMessage ?? 'This file does not exist.');

  let range = request.method === 'GET' || request.method === 'HEAD' ? parseRangeHeader(request.headers.range) : undefined;
  const ifRange = request.headers['if-range'];
  if (range && typeof ifRange === 'string') {
    const info = visibility === 'public' ? await storage.statPublic(key) : await storage.statPrivate(key);
    if (!info) throw missing();
    if (!rangeStillValid(ifRange, info)) range = undefined;
  }

  let file: StoredObject | null;
  try {
    file = await open(range);
  } catch (err) {
    if (!(err instanceof RangeNotSatisfiableError)) throw err;
    return reply
      .code(416)
      .header('content-range', `bytes */${err.size}`)
      .header('accept-ranges', 'bytes')
      .send({ status: 'ERROR', message: 'The requested range is not satisfiable.' });
  }
  if (!file) throw missing();

  reply.header('cache-control', opts.cacheControl ?? (visibility === 'public' ? 'public, max-age=31536000, immutable' : 'private, no-store'));
  reply.header('accept-ranges', 'bytes');
  if (file.etag) reply.header('etag', file.etag);
  if (file.lastModified) reply.header('last-modified', file.lastModified.toUTCString());

  const ifNoneMatch = request.headers['if-none-match'];
  if (typeof ifNoneMatch === 'string' && tagMatches(ifNoneMatch, file.etag, true)) {
    file.stream.destroy();
    return reply.code(304).send();
  }

  reply.header('content-type', file.contentType);
  if (opts.disposition) reply.header('content-disposition', contentDisposition(opts.disposition, opts.filename));
  reply.header('content-length', String(file.end - file.start + 1));
  if (file.partial) reply.code(206).header('content-range', `bytes ${file.start}-${file.end}/${file.size}`);
  if (request.method === 'HEAD') {
    file.stream.destroy();
    // Fastify's HEAD route keeps our Content-Length only when the answer is a stream (it drains it): an empty one.
    return reply.send(Readable.from([]));
  }
  return reply.send(file.stream);
}
