import { inArray } from 'drizzle-orm';
import { categories, packItems, products, productTags, tags, users } from '../../db/schema';
import { demoAccounts, demoCategories, demoCreators, demoDocs, demoImages, demoPacks, demoPassword, demoPrompts } from '../../db/seed-content';
import type { Seeder } from '../../db/seeding';
import { hashPassword } from '../../lib/passwords';
import { produceDemoFiles } from './art/cache';
import { demoKeys, promptTextFor, slugify } from './art/works';

export { slugify };

/** The store's category tree. */
export const categoriesSeeder: Seeder = {
  name: 'categories',
  demo: false,
  async run(tx) {
    let position = 0;
    for (const top of demoCategories) {
      const [parent] = await tx.insert(categories).values({ title: top.title, url: top.url, position: position++ }).onConflictDoNothing().returning();
      if (!parent) continue;
      for (const child of top.children) {
        await tx.insert(categories).values({ title: child.title, url: child.url, parentId: parent.id, position: position++ }).onConflictDoNothing();
      }
    }
  },
};

const allProducts = [
  ...demoImages.map((p) => ({ ...p, kind: 'image' as const })),
  ...demoDocs.map((p) => ({ ...p, kind: 'doc' as const })),
  ...demoPrompts.map((p) => ({ ...p, kind: 'prompt' as const })),
];
const people = [...demoAccounts.map((a) => ({ ...a, canSignIn: true })), ...demoCreators.map((c) => ({ ...c, role: 'user' as const, canSignIn: false }))];

/** Accounts that sign in with the published demo password: only ever created by the demo seeder. */
export const demoSignIns = demoAccounts.map((a) => ({
  email: a.email,
  password: demoPassword,
  role: a.role === 'admin' ? 'admin' : a.nickname === 'sofia' ? 'seller' : 'buyer',
}));

/** The demo marketplace: its people, works and packs. */
export const demoCatalogSeeder: Seeder = {
  name: 'demo-catalog',
  demo: true,
  async prepare({ storage, imageSize }) {
    // Previews, originals and avatars: copied from the build's pictures, or drawn now (tests, dev).
    await produceDemoFiles(imageSize, async (f) => {
      if (f.visibility === 'public') await storage.putPublic(f.key, f.data);
      else await storage.putPrivate(f.key, f.data);
    });
  },
  async run(tx) {
    const demoHash = await hashPassword(demoPassword);
    const lockedHash = await hashPassword(crypto.randomUUID() + crypto.randomUUID());
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

    const categoryRows = await tx
      .select({ id: categories.id, url: categories.url })
      .from(categories)
      .where(
        inArray(
          categories.url,
          allProducts.map((p) => p.category),
        ),
      );
    const categoryIds = new Map(categoryRows.map((c) => [c.url, c.id]));

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
          previewPath: demoKeys({ slug, kind: p.kind }).preview,
          originalPath: demoKeys({ slug, kind: p.kind }).original,
          originalName: demoKeys({ slug, kind: p.kind }).originalName,
          promptText: p.kind === 'prompt' ? promptTextFor(p) : null,
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
  },
};
