import { describe, expect, it } from 'vitest';
import { sniffAttachment } from './features/chat/chat-files';
import { sniffFileType } from './features/offers/offer-file';
import { sniffBinary } from './lib/file-type';

const bytes = (...parts: (number[] | string)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('one table of magic numbers for offers and chat (issue 18)', () => {
  it('tells each binary type by its first bytes', () => {
    expect(sniffBinary(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffBinary(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest'))).toBe('png');
    expect(sniffBinary(bytes('GIF89a', [0, 0]))).toBe('gif');
    expect(sniffBinary(bytes('GIF8'))).toBeNull();
    expect(sniffBinary(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
    expect(sniffBinary(bytes('%PDF-1.7'))).toBe('pdf');
    expect(sniffBinary(bytes([0x50, 0x4b, 0x03, 0x04], 'x'.repeat(5000), 'word/document.xml'))).toBe('docx');
    expect(sniffBinary(bytes([0x50, 0x4b, 0x03, 0x04], 'setup.exe'))).toBe('zip');
    expect(sniffBinary(bytes('MZ\x90\x00'))).toBeNull();
  });

  it('offers and chat read the same table, each taking what it accepts', () => {
    const webp = bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 ');
    expect(sniffAttachment(webp)).toEqual({ ext: 'webp', image: true });
    expect(sniffFileType(webp)).toBeNull();
    const zip = bytes([0x50, 0x4b, 0x03, 0x04], 'setup.exe');
    expect(sniffAttachment(zip)).toEqual({ ext: 'zip', image: false });
    expect(sniffFileType(zip)).toBeNull();
    // A .docx whose word/ entry comes after the first 4 KB is still a document in chat.
    const docx = bytes([0x50, 0x4b, 0x03, 0x04], 'x'.repeat(5000), 'word/document.xml');
    expect(sniffAttachment(docx)).toEqual({ ext: 'docx', image: false });
    expect(sniffFileType(docx)).toBe('docx');
    expect(sniffFileType(bytes('plain words\n'))).toBe('txt');
  });
});
