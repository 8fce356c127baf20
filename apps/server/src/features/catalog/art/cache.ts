import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SeedImageSize } from '../../../db/seed-images';
import { type DemoFile, renderDemoFiles } from './render';

/**
 * The full-size demo pictures are made once by `npm run build` (dist/demo-art, beside the bundled
 * server), so a first start only copies them into storage. Without that folder (tests, `npm run dev`)
 * they are drawn at seed time.
 */
type Manifest = { version: string; files: Array<{ visibility: DemoFile['visibility']; key: string; file: string }> };

const MANIFEST = 'manifest.json';

/** dist/demo-art when running the bundle (dist/server.js); a folder that never exists when running the source. */
export function builtArtDir(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-art');
}

/** Writes every full-size demo file and the manifest under `dir`, unless it already holds `version`. */
export async function buildDemoArt(dir: string, version: string): Promise<boolean> {
  const manifestPath = path.join(dir, MANIFEST);
  if (existsSync(manifestPath)) {
    const old = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    if (old.version === version) return false;
  }
  const manifest: Manifest = { version, files: [] };
  await renderDemoFiles(
    'full',
    async (f) => {
      const file = `${f.visibility}/${f.key}`;
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), f.data);
      manifest.files.push({ visibility: f.visibility, key: f.key, file });
    },
    { concurrency: 2 },
  );
  await writeFile(manifestPath, JSON.stringify(manifest));
  return true;
}

/** Hands every demo file to `put`: from the build's folder when it has them, else drawn now. */
export async function produceDemoFiles(size: SeedImageSize, put: (file: DemoFile) => Promise<void>, dir = builtArtDir()): Promise<'built' | 'drawn'> {
  const manifestPath = path.join(dir, MANIFEST);
  if (size === 'full' && existsSync(manifestPath)) {
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    const files = manifest.files.filter((f) => existsSync(path.join(dir, f.file)));
    if (files.length === manifest.files.length && files.length > 0) {
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < files.length) {
            const f = files[next++]!;
            await put({ visibility: f.visibility, key: f.key, data: await readFile(path.join(dir, f.file)) });
          }
        }),
      );
      return 'built';
    }
  }
  if (size === 'small') {
    // Tests seed many databases in one process: the tiny pictures are drawn once per process.
    smallFiles ??= (async () => {
      const files: DemoFile[] = [];
      await renderDemoFiles('small', async (f) => {
        files.push(f);
      });
      return files;
    })();
    for (const f of await smallFiles) await put(f);
    return 'drawn';
  }
  await renderDemoFiles(size, put);
  return 'drawn';
}

let smallFiles: Promise<DemoFile[]> | null = null;
