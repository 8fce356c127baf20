import { randomBytes } from 'node:crypto';
import { OFFER_FILE_MAX_BYTES } from '@atelier/shared';
import type { FastifyRequest } from 'fastify';
import sanitizeHtml from 'sanitize-html';
import sharp from 'sharp';
import { describeFile, type FileMeta } from '../../lib/file-meta';
import { sniffBinary } from '../../lib/file-type';
import { savePreview } from '../../lib/previews';
import type { Storage } from '../../lib/storage';
import { escapeHtml } from '../../lib/text';

/** What an offer file really is, judged by its bytes. */
export type OfferFileType = 'jpeg' | 'png' | 'gif' | 'svg' | 'pdf' | 'doc' | 'docx' | 'txt';

/** Which sniffed types each allowed extension may hold. */
const TYPES_BY_EXTENSION: Record<string, OfferFileType> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  svg: 'svg',
  pdf: 'pdf',
  doc: 'doc',
  docx: 'docx',
  txt: 'txt',
};

const IMAGE_TYPES = new Set<OfferFileType>(['jpeg', 'png', 'gif', 'svg']);
export const isImageType = (t: OfferFileType) => IMAGE_TYPES.has(t);

function utf8Text(data: Buffer): string | null {
  if (data.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return null;
  }
}

/** An XML document whose root element is <svg> (after an optional declaration, comments and doctype). */
function isSvgText(text: string): boolean {
  const head = text
    .replace(/^\uFEFF/, '')
    .slice(0, 64 * 1024)
    .replace(/<\?xml[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '')
    .trimStart();
  return /^<svg[\s>/]/.test(head);
}

/**
 * The file's type from its bytes alone: the shared magic numbers (lib/file-type.ts) for JPEG, PNG,
 * GIF, PDF, DOCX and DOC; XML with an <svg> root for SVG; valid UTF-8 without NUL for text. Anything
 * else (an executable, an archive, a WebP an offer does not take) is null.
 */
export function sniffFileType(data: Buffer): OfferFileType | null {
  const binary = sniffBinary(data);
  if (binary) return binary === 'webp' || binary === 'zip' ? null : binary;
  const text = utf8Text(data);
  if (text === null) return null;
  if (isSvgText(text)) return 'svg';
  // Control characters other than tab, line breaks and form feed mean it is not a text document.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is checked
  if (/[\u0001-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return null;
  return 'txt';
}

export type CheckedFile = { type: OfferFileType; extension: string };

/** The extension must be allowed and the bytes must be what it names; else the message for `media`. */
export function checkOfferFile(fileName: string, data: Buffer): CheckedFile | { error: string } {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  const expected = TYPES_BY_EXTENSION[extension];
  if (!expected) return { error: 'File type not supported' };
  const actual = sniffFileType(data);
  if (!actual) return { error: 'File type not supported' };
  if (actual !== expected) return { error: `The file's contents do not match its .${extension} name.` };
  return { type: actual, extension };
}

/** The type a file name's extension promises (null: not one an offer takes), for a stored file whose bytes were checked on upload. */
export function typeOfFileName(fileName: string): OfferFileType | null {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return TYPES_BY_EXTENSION[extension] ?? null;
}

export type FileForm = { fields: Record<string, string>; file?: { name: string; data: Buffer }; tooLarge: boolean };

/**
 * Reads an upload form: the named text fields, and the one file part `fileField` held in memory (at
 * most 20 MB). Used by the create-offer form and a product's new version (features/versions).
 */
export async function readFileForm(request: FastifyRequest, opts: { fileField: string; fields: readonly string[] }): Promise<FileForm> {
  const fields: Record<string, string> = {};
  let file: { name: string; data: Buffer } | undefined;
  let tooLarge = false;
  // Not thrown: an oversized file is cut one byte past the limit, and the rest of the form is still read. The size
  // of what arrived decides, not the library's `truncated` flag alone, which now and then missed (issue 18 bug 10).
  const options = { throwFileSizeLimit: false, limits: { fileSize: OFFER_FILE_MAX_BYTES + 1, files: 1, fields: 20, fieldSize: 64 * 1024 } };
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      if (part.fieldname !== opts.fileField || file) {
        part.file.resume();
        continue;
      }
      const data = await part.toBuffer();
      if (part.file.truncated || data.length > OFFER_FILE_MAX_BYTES) tooLarge = true;
      else file = { name: part.filename ?? '', data };
    } else if (opts.fields.includes(part.fieldname) && typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return { fields, file, tooLarge };
}

/** An uploaded form's file checked as an offer file: its size, its presence, its type by name and bytes; else the message for the file field. */
export function checkFormFile(form: FileForm): CheckedFile | { error: string } {
  if (form.tooLarge) return { error: 'File size exceeds 20MB limit' };
  if (!form.file || form.file.data.length === 0) return { error: 'Please upload a file.' };
  return checkOfferFile(form.file.name, form.file.data);
}

/** A file name as it may be stored: no control characters, at most 200 characters. */
export function storableFileName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (NUL among them) cannot be stored in text
  return name.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'file';
}

const SVG_TAGS = [
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'marker',
  'filter',
  'feGaussianBlur',
  'feOffset',
  'feBlend',
  'feColorMatrix',
  'feMerge',
  'feMergeNode',
  'feFlood',
  'feComposite',
];
const SVG_ATTRIBUTES = [
  'id',
  'class',
  'style',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'xmlns',
  'xmlns:xlink',
  'version',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'd',
  'points',
  'transform',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'filter',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'fx',
  'fy',
  'patternUnits',
  'patternTransform',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'dx',
  'dy',
  'href',
  'xlink:href',
  'stdDeviation',
  'in',
  'in2',
  'result',
  'mode',
  'values',
  'type',
  'flood-color',
  'flood-opacity',
  'operator',
  'markerWidth',
  'markerHeight',
  'refX',
  'refY',
  'orient',
  'visibility',
  'display',
  'color',
];

/** A url(...) that leaves the document (anything but a #fragment), or legacy script in CSS. */
const EXTERNAL_CSS = /url\s*\(\s*['"]?\s*(?!#)|expression\s*\(|@import|javascript:/i;

/**
 * An SVG reduced to drawing: no script, no foreignObject, no event handlers (on*), no references
 * outside the document (href only to #fragments, no external url() in styles), no <style> sheets.
 */
export function sanitizeSvg(svg: string): string {
  return sanitizeHtml(svg, {
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    allowedTags: SVG_TAGS,
    allowedAttributes: { '*': SVG_ATTRIBUTES },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'style', 'foreignObject', 'textarea', 'noscript', 'iframe'],
    selfClosing: [],
    exclusiveFilter: () => false,
    transformTags: {
      '*': (tagName, attribs) => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(attribs)) {
          if (/^on/i.test(name)) continue;
          if ((name === 'href' || name === 'xlink:href') && !value.trim().startsWith('#')) continue;
          if (EXTERNAL_CSS.test(value)) continue;
          kept[name] = value;
        }
        return { tagName, attribs: kept };
      },
    },
  });
}

const WATERMARK = 'ATELIER PREVIEW';

function watermarkSvg(width: number, height: number): Buffer {
  const size = Math.max(14, Math.round(Math.min(width, height) / 12));
  const rows: string[] = [];
  for (let y = -height; y < height * 2; y += size * 4) {
    for (let x = -width; x < width * 2; x += size * 11) {
      rows.push(`<text x="${x}" y="${y}">${WATERMARK}</text>`);
    }
  }
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g transform="rotate(-30 ${width / 2} ${height / 2})" font-family="sans-serif" font-weight="bold" font-size="${size}" fill="#ffffff" fill-opacity="0.35" stroke="#000000" stroke-opacity="0.25" stroke-width="1">${rows.join('')}</g></svg>`,
  );
}

/** A watermarked raster of an image (an SVG is rasterised here, never served as markup). */
async function watermarkedImage(data: Buffer): Promise<Buffer> {
  const base = await sharp(data, { animated: false, limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width: 960, height: 960, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = base.info;
  return sharp(base.data)
    .composite([{ input: watermarkSvg(width, height), top: 0, left: 0 }])
    .png()
    .toBuffer();
}

const COVER_LABEL: Record<OfferFileType, string> = { jpeg: 'JPG', png: 'PNG', gif: 'GIF', svg: 'SVG', pdf: 'PDF', doc: 'DOC', docx: 'DOCX', txt: 'TXT' };

/** A generated cover for a document: its type and title on a plain card. */
async function documentCover(title: string, type: OfferFileType): Promise<Buffer> {
  const words = title.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  for (const word of words) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${word}`.length <= 22) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word.slice(0, 22));
    if (lines.length > 6) break;
  }
  const text = lines
    .slice(0, 6)
    .map((line, i) => `<text x="60" y="${420 + i * 56}">${escapeHtml(line)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="960"><rect width="720" height="960" fill="#1d1f2b"/><rect x="40" y="40" width="640" height="880" rx="24" fill="#2a2d3d"/><text x="60" y="200" font-family="sans-serif" font-weight="bold" font-size="96" fill="#00DAC9">${COVER_LABEL[type]}</text><g font-family="sans-serif" font-size="44" fill="#ffffff">${text}</g><text x="60" y="880" font-family="sans-serif" font-size="28" fill="#9aa0b4">${WATERMARK}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export type StoredOfferFile = { originalPath: string; previewPath: string; fileType: OfferFileType; docType: 'image' | 'other'; fileMeta: FileMeta };

/**
 * Stores an accepted upload: the original (an SVG sanitised first) in the private area, and a
 * public WebP preview: watermarked for images, a generated cover for documents. Throws when an
 * image's pixels cannot be read (the caller answers 422).
 */
export async function storeOfferFile(storage: Storage, file: { data: Buffer; checked: CheckedFile; title: string }): Promise<StoredOfferFile> {
  const folder = `offers/${randomBytes(12).toString('hex')}`;
  let original = file.data;
  if (file.checked.type === 'svg') original = Buffer.from(sanitizeSvg(file.data.toString('utf8')));
  const image = isImageType(file.checked.type);
  const preview = image ? await watermarkedImage(original) : await documentCover(file.title, file.checked.type);
  const originalPath = `${folder}/original.${file.checked.extension}`;
  const previewPath = `${folder}/preview.webp`;
  await storage.putPrivate(originalPath, original, { contentType: file.checked.type === 'svg' ? 'application/octet-stream' : undefined });
  await savePreview(storage, previewPath, preview);
  // What a buyer will get, measured now (issue 31 item 7): the product page shows it.
  const fileMeta = await describeFile(originalPath, original);
  return { originalPath, previewPath, fileType: file.checked.type, docType: image ? 'image' : 'other', fileMeta };
}
