import { inArray, sql } from 'drizzle-orm';
import { categories, packItems, products, productTags, tags, users } from '../../db/schema';
import { demoAccounts, demoCategories, demoCreators, demoDocs, demoImages, demoPacks, demoPassword, demoPrompts } from '../../db/seed-content';
import type { Seeder } from '../../db/seeding';
import { hashPassword } from '../../lib/passwords';
import { slugify } from '../../lib/text';
import { produceDemoFiles } from './art/cache';
import { demoKeys, promptTextFor } from './art/works';

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
    // Few statements, many rows each: a first start spends its time answering, not inserting.
    const [demoHash, lockedHash] = await Promise.all([hashPassword(demoPassword), hashPassword(crypto.randomUUID() + crypto.randomUUID())]);
    const userRows = await tx
      .insert(users)
      .values(
        people.map((person) => ({
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
        })),
      )
      .returning({ id: users.id, nickname: users.nickname });
    const userIds = new Map(userRows.map((u) => [u.nickname, u.id]));

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

    // Tags in the order they first appear, as one insert.
    const tagNames = [...new Set([...allProducts.flatMap((p) => p.tags), ...demoPacks.flatMap((p) => p.tags)])];
    const tagRows = await tx
      .insert(tags)
      .values(tagNames.map((name) => ({ name })))
      .returning({ id: tags.id, name: tags.name });
    const tagIds = new Map(tagRows.map((t) => [t.name, t.id]));

    const authors = ['sofia', 'leohart', 'mirachen', 'tomasweber'];
    const start = Date.now() - allProducts.length * 36 * 3600 * 1000;
    const productRows = await tx
      .insert(products)
      .values(
        allProducts.map((p, i) => {
          const slug = slugify(p.title);
          const author = p.kind === 'doc' ? (i % 2 ? 'leohart' : 'sofia') : authors[i % authors.length]!;
          const keys = demoKeys({ slug, kind: p.kind });
          return {
            slug,
            title: p.title,
            description: p.description,
            productType: p.kind,
            categoryId: categoryIds.get(p.category) ?? null,
            authorId: userIds.get(author)!,
            priceMinor: p.price,
            previewPath: keys.preview,
            originalPath: keys.original,
            originalName: keys.originalName,
            promptText: p.kind === 'prompt' ? promptTextFor(p) : null,
            popularity: (i * 37) % 101,
            createdAt: new Date(start + i * 36 * 3600 * 1000),
          };
        }),
      )
      .returning({ id: products.id, slug: products.slug });
    const productIds = new Map(productRows.map((r) => [r.slug, r.id]));

    const packRows = await tx
      .insert(products)
      .values(
        demoPacks.map((pack, i) => {
          const slug = slugify(pack.title);
          return {
            slug,
            title: pack.title,
            description: pack.description,
            productType: 'pack' as const,
            categoryId: null,
            authorId: userIds.get(i === 1 ? 'leohart' : 'sofia')!,
            priceMinor: pack.price,
            previewPath: demoKeys({ slug, kind: 'pack' }).preview,
            popularity: 50 + i,
          };
        }),
      )
      .returning({ id: products.id, slug: products.slug });
    for (const r of packRows) productIds.set(r.slug, r.id);

    await tx
      .insert(packItems)
      .values(
        demoPacks.flatMap((pack) =>
          pack.items.map((title, position) => ({ packId: productIds.get(slugify(pack.title))!, productId: productIds.get(slugify(title))!, position })),
        ),
      );
    await tx
      .insert(productTags)
      .values([...allProducts, ...demoPacks].flatMap((p) => p.tags.map((t) => ({ productId: productIds.get(slugify(p.title))!, tagId: tagIds.get(t)! }))));
  },
  async adopt(tx, seededAt) {
    // The creators who cannot sign in get this installation's own random password, not the build's.
    const lockedHash = await hashPassword(crypto.randomUUID() + crypto.randomUUID());
    await tx
      .update(users)
      .set({ passwordHash: lockedHash })
      .where(
        inArray(
          users.email,
          demoCreators.map((c) => c.email),
        ),
      );
    // Dates as if seeded now: "new" works and "member since" count from this start, not from the build.
    const shift = sql`${`${Math.max(0, Date.now() - seededAt.getTime())} milliseconds`}::interval`;
    const demoUsers = inArray(
      users.email,
      people.map((p) => p.email),
    );
    await tx
      .update(users)
      .set({
        createdAt: sql`${users.createdAt} + ${shift}`,
        updatedAt: sql`${users.updatedAt} + ${shift}`,
        emailVerifiedAt: sql`${users.emailVerifiedAt} + ${shift}`,
      })
      .where(demoUsers);
    await tx
      .update(products)
      .set({ createdAt: sql`${products.createdAt} + ${shift}`, updatedAt: sql`${products.updatedAt} + ${shift}` })
      .where(inArray(products.authorId, tx.select({ id: users.id }).from(users).where(demoUsers)));
  },
};
