import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF as a test reads it: checks that it is a PDF, then decodes every text-showing
 * operator (Tj, TJ) of its content streams, one line each. Enough for pdfkit's output with its
 * built-in fonts (hex strings in WinAnsi), compressed streams included.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  if (!raw.startsWith('%PDF-') || !raw.trimEnd().endsWith('%%EOF')) throw new Error('not a PDF');
  const out: string[] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    let body = m[1]!;
    const dict = raw.slice(Math.max(0, m.index - 300), m.index);
    if (/\/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))) {
      try {
        body = inflateSync(Buffer.from(body, 'latin1')).toString('latin1');
      } catch {
        continue;
      }
    }
    const ops = /\[((?:[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj|\(((?:\\.|[^)])*)\)\s*Tj/g;
    for (let op = ops.exec(body); op; op = ops.exec(body)) {
      if (op[1] !== undefined) {
        const parts = op[1].match(/<([0-9a-fA-F]*)>|\(((?:\\.|[^)])*)\)/g) ?? [];
        out.push(parts.map(decodePart).join(''));
      } else if (op[2] !== undefined) out.push(hex(op[2]));
      else out.push(op[3]!.replace(/\\(.)/g, '$1'));
    }
  }
  return out.join('\n');
}

const hex = (h: string) => Buffer.from(h, 'hex').toString('latin1');
const decodePart = (p: string) => (p.startsWith('<') ? hex(p.slice(1, -1)) : p.slice(1, -1).replace(/\\(.)/g, '$1'));
