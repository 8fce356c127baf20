import { createHash } from 'node:crypto';
import type { ImageGeneration } from '@atelier/shared';
import sharp, { type Sharp } from 'sharp';
import type { Config } from '../../config';

export type ImageFormat = 'png' | 'jpeg' | 'webp';
export type GeneratedImage = { data: Buffer; format: ImageFormat; generator: string };

/**
 * Makes an image from a prompt. Two implementations: an OpenAI-compatible images API (when
 * IMAGE_API_URL and IMAGE_API_KEY are set) and a built-in renderer that draws deterministic
 * abstract art from the prompt, labelled as such, so the feature works offline.
 */
export interface ImageGenerator {
  readonly name: string;
  generate(input: { prompt: string; width: number; height: number; format: ImageFormat; signal?: AbortSignal }): Promise<GeneratedImage>;
}

function encode(image: Sharp, format: ImageFormat): Promise<Buffer> {
  if (format === 'jpeg') return image.jpeg({ quality: 90 }).toBuffer();
  if (format === 'webp') return image.webp({ quality: 90 }).toBuffer();
  return image.png().toBuffer();
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** Abstract art seeded by the prompt: the same prompt and size always give the same picture. */
export function createBuiltinRenderer(): ImageGenerator {
  return {
    name: 'Atelier built-in renderer',
    async generate({ prompt, width, height, format }) {
      const seed = createHash('sha256').update(prompt).digest();
      let i = 0;
      const next = () => {
        const v = seed[i % seed.length]! ^ (i * 37);
        i += 1;
        return (v & 0xff) / 255;
      };
      const hue = Math.floor(next() * 360);
      const shapes: string[] = [];
      for (let k = 0; k < 14; k++) {
        const h = (hue + Math.floor(next() * 120) - 60 + 360) % 360;
        const fill = `hsl(${h},${50 + Math.floor(next() * 40)}%,${35 + Math.floor(next() * 40)}%)`;
        const x = Math.floor(next() * width);
        const y = Math.floor(next() * height);
        const r = Math.floor((0.08 + next() * 0.3) * Math.min(width, height));
        shapes.push(
          k % 3 === 0
            ? `<rect x="${x - r}" y="${y - r / 2}" width="${2 * r}" height="${r}" rx="${r / 4}" fill="${fill}" opacity="0.75" transform="rotate(${Math.floor(next() * 90)} ${x} ${y})"/>`
            : `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="0.7"/>`,
        );
      }
      const label = escapeXml('Abstract art drawn by Atelier’s built-in renderer from your prompt');
      const fontSize = Math.max(14, Math.round(width / 60));
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,18%)"/><stop offset="1" stop-color="hsl(${(hue + 90) % 360},55%,45%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}
<rect x="0" y="${height - fontSize * 2.2}" width="100%" height="${fontSize * 2.2}" fill="rgba(0,0,0,0.45)"/>
<text x="${fontSize}" y="${height - fontSize * 0.75}" font-family="sans-serif" font-size="${fontSize}" fill="#fff">${label}</text></svg>`;
      return { data: await encode(sharp(Buffer.from(svg)), format), format, generator: this.name };
    },
  };
}

/** An OpenAI-compatible `POST {IMAGE_API_URL}/images/generations` (b64_json), converted to the asked format. */
export function createOpenAiImages(opts: { url: string; key: string; model?: string; fetchImpl?: typeof fetch }): ImageGenerator {
  const doFetch = opts.fetchImpl ?? fetch;
  return {
    name: 'image API',
    async generate({ prompt, width, height, format, signal }) {
      const res = await doFetch(`${opts.url.replace(/\/+$/, '')}/images/generations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.key}` },
        body: JSON.stringify({ prompt, size: `${width}x${height}`, n: 1, response_format: 'b64_json', ...(opts.model ? { model: opts.model } : {}) }),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(120_000)]) : AbortSignal.timeout(120_000),
      });
      if (!res.ok) throw new Error(`image API answered ${res.status}`);
      const body = (await res.json()) as { data?: { b64_json?: string }[] };
      const b64 = body.data?.[0]?.b64_json;
      if (!b64) throw new Error('image API answered without an image');
      const image = sharp(Buffer.from(b64, 'base64')).resize(width, height, { fit: 'cover' });
      return { data: await encode(image, format), format, generator: this.name };
    },
  };
}

/**
 * How this start makes generated images (GET /api/settings `image_generation`, issue 18 bug 4): with the
 * configured image model; else, where demo data is on, with the built-in renderer, an illustration
 * drawn from the prompt's words and no AI model; else not at all (the route refuses and charges nothing).
 */
export function imageGenerationMode(config: Pick<Config, 'imageApi' | 'seedDemo'>): ImageGeneration {
  if (config.imageApi) return 'model';
  return config.seedDemo ? 'illustration' : 'off';
}

export function imageGeneratorFor(config: Config): ImageGenerator {
  const api = config.imageApi;
  return api ? createOpenAiImages(api) : createBuiltinRenderer();
}
