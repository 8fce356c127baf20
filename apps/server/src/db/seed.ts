import { en } from '@atelier/shared';
import { eq, sql } from 'drizzle-orm';
import { setSetting } from '../features/site/site.queries';
import { hashPassword } from '../lib/passwords';
import { savePreview } from '../lib/previews';
import { sanitizePageHtml } from '../lib/sanitize';
import type { Storage } from '../lib/storage';
import type { Db } from './client';
import {
  categories,
  currencies,
  languages,
  packItems,
  products,
  productTags,
  siteSettings,
  socialLinks,
  staticPages,
  tags,
  translations,
  users,
} from './schema';
import {
  demoAccounts,
  demoCategories,
  demoCreators,
  demoDocs,
  demoImages,
  demoPacks,
  demoPassword,
  demoPrompts,
  demoSocial,
  demoStaticPages,
  germanWords,
} from './seed-content';
import { renderArtwork, renderAvatar, type SeedImageSize, socialIconSvg } from './seed-images';

const SEED_MARKER = 'demo_seeded_at';

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_-]+/g, '-');
}

export type SeedResult = { created: boolean; accounts: { email: string; password: string; role: string }[] };

const accountList = demoAccounts.map((a) => ({
  email: a.email,
  password: demoPassword,
  role: a.role === 'admin' ? 'admin' : a.nickname === 'sofia' ? 'seller' : 'buyer',
}));

/**
 * Creates the demo marketplace once. Files are written first (deterministic keys), then every row
 * in one transaction that also sets the marker, so a crash never leaves half a catalogue.
 */
export async function seedDemoData(db: Db, storage: Storage, opts: { imageSize?: SeedImageSize } = {}): Promise<SeedResult> {
  const [marker] = await db.select().from(siteSettings).where(eq(siteSettings.key, SEED_MARKER)).limit(1);
  if (marker) return { created: false, accounts: accountList };
  const imageSize = opts.imageSize ?? 'full';

  const people = [...demoAccounts.map((a) => ({ ...a, canSignIn: true })), ...demoCreators.map((c) => ({ ...c, role: 'user' as const, canSignIn: false }))];
  const demoHash = await hashPassword(demoPassword);
  const lockedHash = await hashPassword(crypto.randomUUID() + crypto.randomUUID());

  for (const person of people) {
    await storage.putPublic(`avatars/demo/${person.nickname}-150.webp`, await renderAvatar(person.nickname, 150));
    await storage.putPublic(`avatars/demo/${person.nickname}-300.webp`, await renderAvatar(person.nickname, 300));
  }
  const allProducts = [
    ...demoImages.map((p) => ({ ...p, kind: 'image' as const })),
    ...demoDocs.map((p) => ({ ...p, kind: 'doc' as const })),
    ...demoPrompts.map((p) => ({ ...p, kind: 'prompt' as const })),
  ];
  for (const p of [...allProducts, ...demoPacks.map((p) => ({ ...p, kind: 'pack' as const }))]) {
    const slug = slugify(p.title);
    const art = await renderArtwork(slug, p.kind, imageSize);
    await savePreview(storage, `products/${slug}/preview.webp`, art.preview);
    if (art.original) await storage.putPrivate(`products/${slug}/original.png`, art.original);
    if (p.kind === 'doc') await storage.putPrivate(`products/${slug}/${slug}.txt`, Buffer.from(`${p.title}\n\n${p.description}\n`));
  }
  for (const s of demoSocial) await storage.putPublic(`social/${s.name}.svg`, socialIconSvg(s.color));

  await db.transaction(async (tx) => {
    const userIds = new Map<string, number>();
    for (const person of people) {
      const [row] = await tx
        .insert(users)
        .values({
          email: person.email,
          passwordHash: person.canSignIn ? demoHash : lockedHash,
          name: person.name,
          surname: person.surname,
          nickname: person.nickname,
          phone: '+351912345678',
          aboutMe: person.about,
          hourlyRateMinor: person.rate,
          role: person.role,
          avatarPath: `avatars/demo/${person.nickname}-150.webp`,
          emailVerifiedAt: new Date(),
        })
        .returning({ id: users.id });
      userIds.set(person.nickname, row!.id);
    }

    const categoryIds = new Map<string, number>();
    let position = 0;
    for (const top of demoCategories) {
      const [parent] = await tx.insert(categories).values({ title: top.title, url: top.url, position: position++ }).returning();
      categoryIds.set(top.url, parent!.id);
      for (const child of top.children) {
        const [row] = await tx.insert(categories).values({ title: child.title, url: child.url, parentId: parent!.id, position: position++ }).returning();
        categoryIds.set(child.url, row!.id);
      }
    }

    const tagIds = new Map<string, number>();
    async function tagId(name: string) {
      const known = tagIds.get(name);
      if (known) return known;
      const [row] = await tx.insert(tags).values({ name }).returning({ id: tags.id });
      tagIds.set(name, row!.id);
      return row!.id;
    }

    const authors = ['sofia', 'leohart', 'mirachen', 'tomasweber'];
    const productIds = new Map<string, number>();
    const start = Date.now() - allProducts.length * 36 * 3600 * 1000;
    for (const [i, p] of allProducts.entries()) {
      const slug = slugify(p.title);
      const author = p.kind === 'doc' ? (i % 2 ? 'leohart' : 'sofia') : authors[i % authors.length]!;
      const [row] = await tx
        .insert(products)
        .values({
          slug,
          title: p.title,
          description: p.description,
          productType: p.kind,
          categoryId: categoryIds.get(p.category) ?? null,
          authorId: userIds.get(author)!,
          priceMinor: p.price,
          previewPath: `products/${slug}/preview.webp`,
          originalPath: p.kind === 'image' ? `products/${slug}/original.png` : p.kind === 'doc' ? `products/${slug}/${slug}.txt` : null,
          originalName: p.kind === 'image' ? `${slug}.png` : p.kind === 'doc' ? `${slug}.txt` : null,
          promptText: p.kind === 'prompt' ? `${p.description} Style: ${p.tags.join(', ')}. --ar 4:3 --quality 2` : null,
          popularity: (i * 37) % 101,
          createdAt: new Date(start + i * 36 * 3600 * 1000),
        })
        .returning({ id: products.id });
      productIds.set(p.title, row!.id);
      for (const t of p.tags) await tx.insert(productTags).values({ productId: row!.id, tagId: await tagId(t) });
    }

    for (const [i, pack] of demoPacks.entries()) {
      const slug = slugify(pack.title);
      const [row] = await tx
        .insert(products)
        .values({
          slug,
          title: pack.title,
          description: pack.description,
          productType: 'pack',
          categoryId: null,
          authorId: userIds.get(i === 1 ? 'leohart' : 'sofia')!,
          priceMinor: pack.price,
          previewPath: `products/${slug}/preview.webp`,
          popularity: 50 + i,
        })
        .returning({ id: products.id });
      for (const [position, title] of pack.items.entries()) {
        await tx.insert(packItems).values({ packId: row!.id, productId: productIds.get(title)!, position });
      }
      for (const t of pack.tags) await tx.insert(productTags).values({ productId: row!.id, tagId: await tagId(t) });
    }

    await tx.insert(currencies).values([
      { code: 'EUR', symbol: '€', rate: 1, isDefault: true, position: 0 },
      { code: 'USD', symbol: '$', rate: 1.08, isDefault: false, position: 1 },
      { code: 'GBP', symbol: '£', rate: 0.85, isDefault: false, position: 2 },
      { code: 'JPY', symbol: '¥', rate: 162, isDefault: false, position: 3, wholeOnly: true },
    ]);

    for (const [i, page] of demoStaticPages.entries()) {
      await tx.insert(staticPages).values({ ...page, content: sanitizePageHtml(page.content), position: i });
    }
    for (const [i, s] of demoSocial.entries()) {
      await tx.insert(socialLinks).values({ url: s.url, image: `social/${s.name}.svg`, position: i });
    }

    await tx.insert(languages).values([
      { code: 'en', name: 'English', isDefault: true },
      { code: 'de', name: 'Deutsch', isDefault: false },
    ]);
    await tx.insert(translations).values(Object.entries(en).map(([key, value]) => ({ locale: 'en', key, value })));
    await tx.insert(translations).values(Object.entries(germanWords).map(([key, value]) => ({ locale: 'de', key, value })));

    await setSetting(tx, 'is_reg_enabled', true);
    await setSetting(tx, 'is_email_verification_enabled', false);
    await setSetting(tx, 'internal_currency_name', 'Atelier Credits');
    await setSetting(tx, 'formats', [
      { id: 1, title: 'PNG' },
      { id: 2, title: 'JPEG' },
      { id: 3, title: 'WebP' },
    ]);
    await setSetting(tx, 'sizes', [
      { id: 1, title: '1024x1024' },
      { id: 2, title: '1536x1024' },
      { id: 3, title: '1024x1536' },
    ]);
    // Commerce (features/ledger/commerce-settings.ts): not part of the public settings payload.
    for (const [key, value] of Object.entries({ commission_percent: 20, deposit_min: 5, deposit_max: 1000, generation_price: 1 })) {
      await tx.insert(siteSettings).values({ key, value });
    }
    await setSetting(tx, 'google_tag', '');
    await setSetting(tx, 'requisites', 'Atelier Marketplace Ltd., 1 Creative Way, Lisbon, Portugal. VAT PT500000000.');
    await setSetting(tx, 'support_email', 'support@atelier.example');
    await setSetting(tx, 'copyright', `© ${new Date().getFullYear()} Atelier. All rights reserved.`);
    await tx.insert(siteSettings).values({ key: SEED_MARKER, value: new Date().toISOString() });
  });
  return { created: true, accounts: accountList };
}

/** Empties the database and the files, for `npm run seed -- --reset`. */
export async function resetDatabase(db: Db): Promise<void> {
  await db.execute(sql`drop schema if exists public cascade`);
  await db.execute(sql`drop schema if exists drizzle cascade`);
  await db.execute(sql`create schema public`);
}
