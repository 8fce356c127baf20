import { inflateRawSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * What a stored file is, measured once when it arrives (issue 31 item 7): its format (by its name's
 * extension, as the download names it), its size, and for an image its pixels, for a PDF or DOCX its
 * pages, for a text or DOCX its words. A measure that cannot be read is left out, never guessed.
 */
export type FileMeta = { format: string; bytes: number; width?: number; height?: number; words?: number; pages?: number };

const IMAGE_FORMATS = new Set(['PNG', 'JPG', 'JPEG', 'GIF', 'SVG', 'WEBP']);

/** "Essay.PDF" → "PDF"; "JPEG" is shown as "JPG", as most people know it. */
export function formatOf(name: string): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase() ?? 'FILE';
  return ext === 'JPEG' ? 'JPG' : ext;
}

/** Words in a text: runs of letters or digits (so "—" and "*" count for nothing). */
export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
}

/** Page objects in a PDF's bytes ("/Type /Page", not "/Pages"): compressed object streams hide some, then null. */
function pdfPages(data: Buffer): number | undefined {
  const n = data.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return n > 0 ? n : undefined;
}

/** One entry of a ZIP (a DOCX), found by its local header and inflated; null when absent, unsized or unreadable. */
function zipEntry(zip: Buffer, wanted: string): Buffer | null {
  const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  let at = 0;
  while (at + 30 <= zip.length) {
    at = zip.indexOf(signature, at);
    if (at < 0 || at + 30 > zip.length) return null;
    const method = zip.readUInt16LE(at + 8);
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 30, at + 30 + nameLength);
    const start = at + 30 + nameLength + extraLength;
    if (name === wanted && size > 0 && start + size <= zip.length) {
      const body = zip.subarray(start, start + size);
      try {
        return method === 0 ? body : method === 8 ? inflateRawSync(body) : null;
      } catch {
        return null;
      }
    }
    // An entry written with a data descriptor names no size here: look for the next header.
    at = size > 0 ? start + size : at + 4;
  }
  return null;
}

/** A DOCX's pages as Word last counted them (docProps/app.xml), and the words of its text. */
function docxMeasures(data: Buffer): { pages?: number; words?: number } {
  const app = zipEntry(data, 'docProps/app.xml')?.toString('utf8') ?? '';
  const pages = Number(/<Pages>(\d+)<\/Pages>/.exec(app)?.[1] ?? 0);
  const document = zipEntry(data, 'word/document.xml')?.toString('utf8');
  const words = document ? countWords(document.replace(/<\/w:p>/g, ' ').replace(/<[^>]+>/g, '')) : 0;
  return { ...(pages > 0 ? { pages } : {}), ...(words > 0 ? { words } : {}) };
}

/** Measures a file by its name and bytes. */
export async function describeFile(name: string, data: Buffer): Promise<FileMeta> {
  const format = formatOf(name);
  const meta: FileMeta = { format, bytes: data.length };
  if (IMAGE_FORMATS.has(format)) {
    try {
      const { width, height } = await sharp(data, { animated: false, limitInputPixels: 100_000_000 }).metadata();
      if (width && height) Object.assign(meta, { width, height });
    } catch {
      // Unreadable pixels: format and size are still true.
    }
  } else if (format === 'PDF') {
    const pages = pdfPages(data);
    if (pages) meta.pages = pages;
  } else if (format === 'DOCX') {
    Object.assign(meta, docxMeasures(data));
  } else if (format === 'TXT' || format === 'MD') {
    meta.words = countWords(data.toString('utf8'));
  }
  return meta;
}
