import type { Readable } from 'node:stream';

/**
 * Where files live. Public files (previews, avatars) are served to anyone under /storage/...;
 * private files (originals that buyers pay for, chat attachments) are only streamed by handlers
 * that check access (sendStoredFile). Two implementations: local disk (one server) and any
 * S3-compatible bucket (several app servers sharing the same files).
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores the bytes under the key, replacing what was there; a Readable is streamed, never held whole in memory. */
  putPublic(key: string, data: Buffer | Readable, opts?: PutOptions): Promise<string>;
  putPrivate(key: string, data: Buffer | Readable, opts?: PutOptions): Promise<string>;
  /**
   * A stream of the object (or of the asked byte range of it), or null when there is none.
   * Throws RangeNotSatisfiableError when the range lies outside the object.
   */
  openPublic(key: string, range?: ByteRange): Promise<StoredObject | null>;
  openPrivate(key: string, range?: ByteRange): Promise<StoredObject | null>;
  statPublic(key: string): Promise<ObjectInfo | null>;
  statPrivate(key: string): Promise<ObjectInfo | null>;
  /** Removing a key that does not exist is not an error. */
  removePublic(key: string): Promise<void>;
  removePrivate(key: string): Promise<void>;
  /** Lets go of connections (the app calls it on close). */
  close(): void;
}

export type Visibility = 'public' | 'private';

export type PutOptions = {
  /** Defaults to the type that the key's extension names. Local disk always answers with the extension's type. */
  contentType?: string;
};

export type ObjectInfo = {
  /** Bytes in the whole object. */
  size: number;
  contentType: string;
  /** Quoted, as sent in an ETag header. */
  etag?: string;
  lastModified?: Date;
};

export type StoredObject = ObjectInfo & {
  stream: Readable;
  /** First and last byte (inclusive) that the stream carries; end is start - 1 for an empty object. */
  start: number;
  end: number;
  /** The stream carries only the asked range (answer 206). */
  partial: boolean;
};

/** One byte range as a client asks for it: from start (to end), or the last `suffix` bytes. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super('The requested range is not satisfiable.');
    this.name = 'RangeNotSatisfiableError';
  }
}

export class InvalidStorageKeyError extends Error {
  constructor() {
    super('Invalid storage key.');
    this.name = 'InvalidStorageKeyError';
  }
}

/**
 * Keys are relative, slash-separated paths such as `products/aurora/preview.webp`. Anything that
 * could escape a folder or confuse a file system or an S3 path is refused: empty segments, `.` and
 * `..`, a leading slash, backslashes, control characters (NUL among them).
 */
export function isValidStorageKey(key: string): boolean {
  if (key.length === 0 || Buffer.byteLength(key) > 900) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function assertValidStorageKey(key: string): void {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError();
}

/** The inclusive byte positions a range covers in an object of `size` bytes; throws when none. */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  if ('suffix' in range) {
    if (range.suffix <= 0 || size === 0) throw new RangeNotSatisfiableError(size);
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size || (range.end !== undefined && range.end < range.start)) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/**
 * Reads a Range header. Only a single `bytes=` range is honoured; anything else (another unit,
 * several ranges, garbage) is ignored and the whole object is sent, as HTTP allows.
 */
export function parseRangeHeader(header: string | undefined): ByteRange | undefined {
  if (!header) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') return { suffix: Number(last) };
  return last === '' ? { start: Number(first) } : { start: Number(first), end: Number(last) };
}

const contentTypes: Record<string, string> = {
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  psd: 'image/vnd.adobe.photoshop',
  pdf: 'application/pdf',
  zip: 'application/zip',
  epub: 'application/epub+zip',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

/** The content type that a key's extension names; unknown extensions are plain bytes. */
export function contentTypeFor(key: string): string {
  const dot = key.lastIndexOf('.');
  const ext = dot > key.lastIndexOf('/') ? key.slice(dot + 1).toLowerCase() : '';
  return contentTypes[ext] ?? 'application/octet-stream';
}
