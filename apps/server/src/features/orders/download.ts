import { Readable, Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** `a-b` from a title: what a saved file is called. */
export function cleanFileName(base: string, ext: string): string {
  const stem =
    base
      .normalize('NFKD')
      .replace(/[^\w\s.-]/g, '')
      .trim()
      .replace(/[\s_]+/g, '-')
      .replace(/-+/g, '-')
      .slice(0, 80) || 'download';
  const cleanExt = ext.replace(/[^a-z0-9]/gi, '').toLowerCase();
  return cleanExt ? `${stem}.${cleanExt}` : stem;
}

export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const types: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** One `bytes=` range of a file of `size` bytes; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Passes on only bytes [start, end] of a stream (the storage hands out whole files). */
function slice(start: number, end: number): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const from = Math.max(0, start - offset);
      const to = Math.min(chunk.length, end - offset + 1);
      offset += chunk.length;
      if (to > from) this.push(chunk.subarray(from, to));
      done();
    },
  });
}

/** Sends a file as an attachment, honouring a single Range request (206 / 416). */
export function sendAttachment(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { stream: Readable; size: number; fileName: string; ext: string },
): FastifyReply {
  const range = parseRange(request.headers.range, file.size);
  reply
    .header('content-type', types[file.ext.toLowerCase()] ?? 'application/octet-stream')
    .header('content-disposition', contentDisposition(file.fileName))
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, no-store');
  if (range === 'invalid') {
    file.stream.destroy();
    return reply.code(416).header('content-range', `bytes */${file.size}`).send();
  }
  if (!range) return reply.header('content-length', file.size).send(file.stream);
  const part = file.stream.pipe(slice(range.start, range.end));
  part.on('close', () => file.stream.destroy());
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(part);
}

/** Bytes held in memory (a prompt's text) as a stream. */
export function bufferFile(data: Buffer): { stream: Readable; size: number } {
  return { stream: Readable.from([data]), size: data.length };
}
