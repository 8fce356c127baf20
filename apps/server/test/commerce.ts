import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { categories, ledgerAccounts, products, users } from '../src/db/schema';
import { clearingAccountCode, platformRevenueMinor, systemAccountId, transfer, userAccountId } from '../src/features/ledger';
import { registerPerson } from './accounts';

export async function userIdByEmail(app: FastifyInstance, email: string): Promise<number> {
  const [u] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (!u) throw new Error(`no user ${email}`);
  return u.id;
}

/** Credits a user as a settled card deposit would (clearing → user), for tests that need money. */
export async function fund(app: FastifyInstance, userId: number, minor: number) {
  await app.db.transaction(async (tx) => {
    const clearing = await systemAccountId(tx, clearingAccountCode('sandbox'));
    await transfer(tx, {
      lines: [
        { accountId: clearing, amountMinor: -minor },
        { accountId: await userAccountId(tx, userId), amountMinor: minor },
      ],
      kind: 'adjustment',
      reason: 'test funding',
    });
  });
}

export async function balanceMinor(app: FastifyInstance, userId: number): Promise<number> {
  const [row] = await app.db.select({ b: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId));
  return row ? Number(row.b) : 0;
}

/** The platform's revenue: the sum of its revenue accounts (sales spread over several, see REVENUE_SHARDS). */
export async function revenueMinor(app: FastifyInstance): Promise<number> {
  return platformRevenueMinor(app.db);
}

/** Published seeded products of a type, oldest first (the seed's own order). */
export async function seededProducts(app: FastifyInstance, type: 'image' | 'doc' | 'prompt' | 'pack') {
  return app.db
    .select()
    .from(products)
    .where(
      and(eq(products.productType, type), eq(products.status, 'published'), type === 'image' || type === 'doc' ? isNotNull(products.originalPath) : undefined),
    )
    .orderBy(asc(products.id));
}

/** The first category's id, for a listing that needs one. */
export async function firstCategoryId(app: FastifyInstance): Promise<number> {
  const [cat] = await app.db.select({ id: categories.id }).from(categories).orderBy(categories.id).limit(1);
  if (!cat) throw new Error('no category: seed the app');
  return cat.id;
}

/** The balance of the ledger account `code` (0 while it does not exist yet), EUR cents. */
export async function accountMinor(app: FastifyInstance, code: string): Promise<number> {
  const [row] = await app.db.select({ b: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code));
  return row ? Number(row.b) : 0;
}

/** A creator's pending earnings (their share of sales still in the clearing period), EUR cents. */
export const pendingMinor = (app: FastifyInstance, userId: number) => accountMinor(app, `earnings:pending:${userId}`);

/** A creator's available earnings (released: spendable and withdrawable), EUR cents. */
export const availableMinor = (app: FastifyInstance, userId: number) => accountMinor(app, `earnings:available:${userId}`);

let soldSerial = 0;

/**
 * A listed prompt by `authorId` at `priceMinor` (its download is its text, so no file is needed);
 * `extra` overrides any column. Answers its id.
 */
export async function listedPrompt(app: FastifyInstance, authorId: number, priceMinor: number, extra: Partial<typeof products.$inferInsert> = {}) {
  soldSerial++;
  const [row] = await app.db
    .insert(products)
    .values({
      slug: `sold-prompt-${authorId}-${soldSerial}-${Date.now()}`,
      title: `Sold prompt ${soldSerial}`,
      productType: 'prompt',
      promptText: 'A fox at dawn',
      authorId,
      priceMinor,
      ...extra,
    })
    .returning({ id: products.id });
  return row!.id;
}

/**
 * A real sale (issue 30: every sale is of a sold line, which keeps its split and its earnings state):
 * a prompt by `sellerId` at `priceMinor`, bought through the API by `buyer` from their balance (funded
 * first unless `funded`). Returns the order's id.
 */
export async function sellPrompt(
  app: FastifyInstance,
  buyer: { id: number; client: { post(url: string, body: unknown): Promise<{ statusCode: number; json(): any }> } },
  sellerId: number,
  priceMinor: number,
  opts: { funded?: boolean } = {},
): Promise<number> {
  const id = await listedPrompt(app, sellerId, priceMinor);
  if (!opts.funded) await fund(app, buyer.id, priceMinor);
  const res = await buyer.client.post('/api/purchase/prompt', { prompt_id: id });
  if (res.statusCode !== 200) throw new Error(`the purchase failed: ${res.statusCode} ${JSON.stringify(res.json())}`);
  return res.json().payload.order.id as number;
}

/**
 * A new buyer, funded with `minor`, who buys the prompt `productId` through the API from their
 * balance. Answers the buyer and the order's id.
 */
export async function buyPromptAsNewBuyer(app: FastifyInstance, productId: number, minor: number) {
  const buyer = await registerPerson(app);
  await fund(app, buyer.id, minor);
  const res = await buyer.client.post('/api/purchase/prompt', { prompt_id: productId });
  if (res.statusCode !== 200) throw new Error(`the purchase failed: ${res.statusCode} ${res.body}`);
  return { buyer, orderId: res.json().payload.order.id as number };
}
