import { describe, expect, it } from 'vitest';
import { checkOfferFile, sanitizeSvg, sniffFileType } from './offer-file';

describe('offer file sniffer', () => {
  it('tells types by their bytes', () => {
    expect(sniffFileType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpeg');
    expect(sniffFileType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('png');
    expect(sniffFileType(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('gif');
    expect(sniffFileType(Buffer.from('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffFileType(Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('word/document.xml')]))).toBe('docx');
    expect(sniffFileType(Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('xl/workbook.xml')]))).toBeNull();
    expect(sniffFileType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe('doc');
    expect(sniffFileType(Buffer.from('\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('svg');
    expect(sniffFileType(Buffer.from('<html><svg></svg></html>'))).toBe('txt');
    expect(sniffFileType(Buffer.from('plain words\n\tand a tab'))).toBe('txt');
    expect(sniffFileType(Buffer.from([0x41, 0x00]))).toBeNull();
    expect(sniffFileType(Buffer.from([0xc3, 0x28]))).toBeNull(); // invalid UTF-8
    expect(sniffFileType(Buffer.from('MZ\x90\x00', 'latin1'))).toBeNull();
  });

  it('needs the name and the bytes to agree', () => {
    expect(checkOfferFile('a.JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ type: 'jpeg', extension: 'jpeg' });
    expect(checkOfferFile('a.png', Buffer.from('%PDF-1.4'))).toEqual({ error: "The file's contents do not match its .png name." });
    expect(checkOfferFile('a.exe', Buffer.from('%PDF-1.4'))).toEqual({ error: 'File type not supported' });
    expect(checkOfferFile('noextension', Buffer.from('%PDF-1.4'))).toEqual({ error: 'File type not supported' });
  });

  it('strips script, handlers, foreign content and external references from SVG', () => {
    const clean = sanitizeSvg(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><script>alert(1)</script><style>rect{fill:url(https://e/x)}</style><a href="javascript:alert(1)"><rect width="1" height="1"/></a><use href="https://e/s.svg#a"/><use href="#local"/><rect style="fill:url(http://e/p)" onmouseover="y()"/><foreignObject><iframe src="https://e"/></foreignObject><linearGradient id="g"/><circle fill="url(#g)" r="2"/></svg>',
    );
    expect(clean).not.toMatch(/script|onload|onmouseover|https?:\/\/e|javascript|iframe|foreignObject|<style|<a\b/i);
    expect(clean).toContain('<use href="#local">');
    expect(clean).toContain('fill="url(#g)"');
    expect(clean).toContain('<linearGradient id="g">');
  });
});
