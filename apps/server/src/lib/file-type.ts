/** A binary file's type told by its first bytes (never by its name or the type a client claims). */
export type BinaryType = 'jpeg' | 'png' | 'gif' | 'webp' | 'pdf' | 'docx' | 'zip' | 'doc';

const startsWith = (data: Buffer, bytes: number[], at = 0) => data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);

/**
 * The one table of magic numbers (issue 18: offers and chat each had their own): JPEG, PNG, GIF,
 * WebP, PDF, a ZIP (a DOCX when it holds `word/`), and the OLE compound header of a legacy DOC.
 * Null for anything else; text formats (SVG, plain text) are the caller's to judge.
 */
export function sniffBinary(data: Buffer): BinaryType | null {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  const head = data.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (head.startsWith('%PDF-')) return 'pdf';
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return data.includes('word/') ? 'docx' : 'zip';
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  return null;
}
