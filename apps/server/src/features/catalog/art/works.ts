import { demoDocs, demoImages, demoPacks, demoPrompts } from '../../../db/seed-content';
import { slugify } from '../../../lib/text';

export type WorkKind = 'image' | 'doc' | 'prompt' | 'pack';

export type DemoWork = {
  slug: string;
  title: string;
  description: string;
  kind: WorkKind;
  category: string | null;
  tags: string[];
  price: number;
  /** For packs: the slugs of their items, in order. */
  items: string[];
};

/** A demo prompt's text: what its buyer gets. */
export function promptTextFor(p: { description: string; tags: readonly string[] }): string {
  return `${p.description} Style: ${p.tags.join(', ')}. --ar 4:3 --quality 2`;
}

/** Every demo work (products first, then packs), as the seed and the pictures see them. */
export const demoWorks: DemoWork[] = [
  ...demoImages.map((p) => ({ ...p, kind: 'image' as const })),
  ...demoDocs.map((p) => ({ ...p, kind: 'doc' as const })),
  ...demoPrompts.map((p) => ({ ...p, kind: 'prompt' as const })),
].map((p) => ({
  slug: slugify(p.title),
  title: p.title,
  description: p.description,
  kind: p.kind,
  category: p.category,
  tags: [...p.tags],
  price: p.price,
  items: [],
}));

export const demoPackWorks: DemoWork[] = demoPacks.map((p) => ({
  slug: slugify(p.title),
  title: p.title,
  description: p.description,
  kind: 'pack' as const,
  category: null,
  tags: [...p.tags],
  price: p.price,
  items: p.items.map((title) => slugify(title)),
}));

/** Where a demo work's files live in storage. */
export function demoKeys(w: Pick<DemoWork, 'slug' | 'kind'>) {
  const dir = `products/${w.slug}`;
  return {
    preview: `${dir}/preview.webp`,
    original: w.kind === 'image' ? `${dir}/original.png` : w.kind === 'doc' ? `${dir}/${w.slug}.txt` : null,
    originalName: w.kind === 'image' ? `${w.slug}.png` : w.kind === 'doc' ? `${w.slug}.txt` : null,
  };
}
