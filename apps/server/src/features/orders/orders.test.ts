import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { lastMailTo, registerUser } from '../../../test/accounts';
import { balanceMinor, fund, pendingMinor, revenueMinor, seededProducts, userIdByEmail } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { currencies, ledgerAccounts, notifications, packItems, products, users } from '../../db/schema';
import { checkLedger, revenueAccountCode } from '../ledger';

const t = useTestApp({ seed: true });

async function buyer(eurosMinor = 0) {
  const { client, person } = await registerUser(t.app);
  const id = await userIdByEmail(t.app, person.email);
  if (eurosMinor) await fund(t.app, id, eurosMinor);
  return { client, person, id };
}

/** Receipts are jobs written with the order: run what is due, as the worker would after commit, until the newest mail to an address matches. */
async function mailTo(email: string, subject: string) {
  await expect
    .poll(
      async () => {
        await t.app.jobs.runDue();
        return (await lastMailTo(t.app, email))?.subject;
      },
      { timeout: 3000, interval: 50 },
    )
    .toBe(subject);
  return lastMailTo(t.app, email);
}

async function authorOf(productId: number) {
  const [p] = await t.app.db.select({ authorId: products.authorId, price: products.priceMinor }).from(products).where(eq(products.id, productId));
  return { authorId: p!.authorId, price: Number(p!.price) };
}

describe('purchases', () => {
  it('a guest gets 401 on every purchase and order call', async () => {
    const guest = new TestClient(t.app);
    for (const [url, body] of [
      ['/api/purchase/buy', { item_id: 1 }],
      ['/api/purchase/prompt', { prompt_id: 1 }],
      ['/api/purchase/pack', { pack_id: 1 }],
    ] as const) {
      const res = await guest.post(url, body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 'ERROR' });
    }
    expect((await guest.get('/api/purchase/history')).statusCode).toBe(401);
    expect((await guest.get('/api/user/media/download?id=1&product_id=1')).statusCode).toBe(401);
  });

  it('buys an image: the price leaves the buyer, the author earns it less 20 % (pending), revenue the commission', async () => {
    const [image] = await seededProducts(t.app, 'image');
    const { authorId, price } = await authorOf(image!.id);
    const b = await buyer(price + 100);
    const authorBefore = await pendingMinor(t.app, authorId);
    const revenueBefore = await revenueMinor(t.app);
    const res = await b.client.post('/api/purchase/buy', { item_id: image!.id });
    expect(res.statusCode).toBe(200);
    const { payload } = res.json();
    expect(payload.status).toBe('Success');
    expect(payload.order).toMatchObject({ title: image!.title, amount: price / 100, currencyCode: 'EUR', status: 'Success', product_type: 'image' });
    expect(payload.order.items).toHaveLength(1);
    expect(payload.order.items[0].info).toMatchObject({
      id: image!.id,
      title: image!.title,
      doc_url_orig: `/api/user/media/download?id=${payload.order.id}&product_id=${image!.id}`,
    });
    expect(await balanceMinor(t.app, b.id)).toBe(100);
    const commission = Math.round(price * 0.2);
    expect(await pendingMinor(t.app, authorId)).toBe(authorBefore + price - commission);
    expect(await revenueMinor(t.app)).toBe(revenueBefore + commission);
    expect((await b.client.get('/api/balance')).json().payload.amount_minor).toBe(100);

    // Buying it again, or putting it in the cart, is refused.
    const again = await b.client.post('/api/purchase/buy', { item_id: image!.id });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('You already own this product.');
    const add = await b.client.post('/api/cart/items', { product_type: 'image', product_id: image!.id });
    expect(add.statusCode).toBe(422);
    expect(add.json().errors.product_id).toEqual(['You already own this product.']);

    // Receipts: the buyer's, with the licence, and the author's sale notice.
    const receipt = await mailTo(b.person.email, `Your Atelier order #${payload.order.id}`);
    expect(receipt?.subject).toBe(`Your Atelier order #${payload.order.id}`);
    expect(receipt?.text).toContain(image!.title);
    expect(receipt?.text).toContain('Licence');
    expect(receipt?.text).toContain(`${image!.title}: ${(price / 100).toFixed(2)} €`);
    // The link opens what it names: Order history (issue 18).
    expect(receipt?.text).toContain(`Your files are in your order history: ${t.app.config.publicUrl}/dashboard/orders`);
    const [author] = await t.app.db.select().from(users).where(eq(users.id, authorId));
    const sale = await mailTo(author!.email, 'You made a sale');
    expect(sale?.subject).toBe('You made a sale');
    expect(sale?.text).toContain('Your share is in your pending earnings');
  });

  it('refuses the wrong call for a type, an unknown product and a short balance (nothing charged)', async () => {
    const [prompt] = await seededProducts(t.app, 'prompt');
    const [pack] = await seededProducts(t.app, 'pack');
    const [, image] = await seededProducts(t.app, 'image');
    const b = await buyer(50);
    const wrong = await b.client.post('/api/purchase/buy', { item_id: prompt!.id });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.item_id[0]).toMatch(/not an image or text product/);
    expect((await b.client.post('/api/purchase/prompt', { prompt_id: image!.id })).json().message).toBe('This product is not a prompt.');
    expect((await b.client.post('/api/purchase/pack', { pack_id: prompt!.id })).json().message).toBe('This product is not a pack.');
    const unknown = await b.client.post('/api/purchase/buy', { item_id: 999999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('This product does not exist.');
    const invalid = await b.client.post('/api/purchase/buy', { item_id: 'abc' });
    expect(invalid.statusCode).toBe(422);

    const short = await b.client.post('/api/purchase/pack', { pack_id: pack!.id });
    expect(short.statusCode).toBe(422);
    const missing = (Number(pack!.priceMinor) - 50) / 100;
    expect(short.json().message).toBe(`Your balance is too low: ${missing.toFixed(2)} € is missing. Please add funds to continue.`);
    expect(await balanceMinor(t.app, b.id)).toBe(50);
    expect((await b.client.get('/api/purchase/history')).json().payload).toEqual([]);
  });

  it('answers in the asked currency at its rate of the moment; an unknown currency is a 422 and charges nothing', async () => {
    const [, , first, second] = await seededProducts(t.app, 'image');
    // One cent short of both.
    const b = await buyer(Number(first!.priceMinor) + Number(second!.priceMinor) - 1);
    const unknown = await b.client.post('/api/purchase/buy?currency=XYZ', { item_id: first!.id });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.currency[0]).toBe('The currency "XYZ" is not available.');
    expect((await b.client.get('/api/purchase/history')).json().payload).toEqual([]);

    const usd = await b.client.post('/api/purchase/buy?currency=USD', { item_id: first!.id });
    expect(usd.json().payload.order).toMatchObject({ currencyCode: 'USD', amount: Math.round(Number(first!.priceMinor) * 1.08) / 100 });
    const shortBy = async () => {
      const res = await b.client.post('/api/purchase/buy?currency=USD', { item_id: second!.id });
      expect(res.statusCode).toBe(422);
      return res.json().message as string;
    };
    // 1 cent at 1.08 is 1.08 US cents: shown rounded up (hole 6), so that paying it covers it.
    expect(await shortBy()).toMatch(/is too low: \$?0\.02/);
    // Each app server keeps the currencies and reads them again when PostgreSQL says they changed.
    await t.app.db.update(currencies).set({ rate: '3' }).where(eq(currencies.code, 'USD'));
    try {
      await vi.waitFor(async () => expect(await shortBy()).toMatch(/is too low: \$?0\.03/), { timeout: 3000, interval: 50 });
      await fund(t.app, b.id, 1);
      const res = await b.client.post('/api/purchase/buy?currency=USD', { item_id: second!.id });
      expect(res.json().payload.order).toMatchObject({ currencyCode: 'USD', amount: (Number(second!.priceMinor) * 3) / 100 });
      expect(await balanceMinor(t.app, b.id)).toBe(0);
    } finally {
      await t.app.db.update(currencies).set({ rate: '1.08' }).where(eq(currencies.code, 'USD'));
    }
  });

  it("issue 18 bug 7: a past order keeps the currency and the rate it was paid at; today's amount is only a hint", async () => {
    const [image] = await seededProducts(t.app, 'image');
    const price = Number(image!.priceMinor);
    const b = await buyer(price);
    const bought = await b.client.post('/api/purchase/buy?currency=JPY', { item_id: image!.id });
    expect(bought.statusCode).toBe(200);
    const paidYen = Math.round((price * 162) / 100);
    expect(bought.json().payload.order).toMatchObject({ currencyCode: 'JPY', amount: paidYen, today: null });
    // The receipt says it in the currency paid, no decimals for yen, with the ledger's euros beside it.
    const receipt = await mailTo(b.person.email, `Your Atelier order #${bought.json().payload.order.id}`);
    expect(receipt?.text).toContain(`${image!.title}: ${paidYen} JPY`);
    expect(receipt?.text).toContain(`Total paid from your balance: ${paidYen} JPY (${(price / 100).toFixed(2)} € in EUR, your balance's currency).`);
    await t.app.db.update(currencies).set({ rate: '200' }).where(eq(currencies.code, 'JPY'));
    try {
      // A new rate reprices the catalogue, not what was paid.
      await vi.waitFor(
        async () => {
          const product = (await b.client.get(`/api/products/${image!.slug}/info?currency=JPY`)).json().payload;
          expect(product.price).toBe(Math.round((price * 200) / 100));
        },
        { timeout: 3000, interval: 50 },
      );
      const inYen = (await b.client.get('/api/purchase/history?currency=JPY')).json().payload[0];
      expect(inYen).toMatchObject({ id: bought.json().payload.order.id, currencyCode: 'JPY', amount: paidYen, today: null });
      expect(inYen.items[0].price).toBe(paidYen);
      const inEuro = (await b.client.get('/api/purchase/history?currency=EUR')).json().payload[0];
      expect(inEuro).toMatchObject({ currencyCode: 'JPY', amount: paidYen, today: { currencyCode: 'EUR', amount: price / 100 } });
    } finally {
      await t.app.db.update(currencies).set({ rate: '162' }).where(eq(currencies.code, 'JPY'));
    }
  });

  it('buys a prompt and a pack; the pack brings all its items at the pack price, each with its own author (issue 18 bug 8)', async () => {
    const [prompt] = await seededProducts(t.app, 'prompt');
    const [pack] = await seededProducts(t.app, 'pack');
    const contents = await t.app.db.select().from(packItems).where(eq(packItems.packId, pack!.id));
    const b = await buyer(Number(prompt!.priceMinor) + Number(pack!.priceMinor));
    const p = await b.client.post('/api/purchase/prompt', { prompt_id: prompt!.id });
    expect(p.statusCode).toBe(200);
    expect(p.json().payload.order.product_type).toBe('prompt');
    const k = await b.client.post('/api/purchase/pack', { pack_id: pack!.id });
    expect(k.statusCode).toBe(200);
    const order = k.json().payload.order;
    expect(order.product_type).toBe('pack');
    expect(order.amount).toBe(Number(pack!.priceMinor) / 100);
    expect(order.items.map((i: { info: { id: number } }) => i.info.id).sort()).toEqual(contents.map((c) => c.productId).sort());
    const itemsTotal = order.items.reduce((s: number, i: { price: number }) => s + Math.round(i.price * 100), 0);
    expect(itemsTotal).toBe(Number(pack!.priceMinor));
    expect(await balanceMinor(t.app, b.id)).toBe(0);
    // Owning the pack means owning its items.
    const item = await b.client.post('/api/cart/items', { product_type: order.items[0].product_type, product_id: order.items[0].info.id });
    expect(item.json().message).toBe('You already own this product.');

    const history = (await b.client.get('/api/purchase/history')).json().payload;
    expect(history.map((o: { id: number }) => o.id)).toEqual([order.id, p.json().payload.order.id]);
    expect(history[0]).toMatchObject({ status: 'Success', currencyCode: 'EUR' });
    expect(typeof history[0].created_at).toBe('number');
    expect(history[0].items[0]).toMatchObject({ product_type: expect.any(String), seller: { nickname: expect.any(String) } });
    // Issue 18 bug 8: each pack item carries its own author, not the pack's.
    const authors = await t.app.db
      .select({ id: products.id, nickname: users.nickname })
      .from(products)
      .innerJoin(users, eq(users.id, products.authorId))
      .where(
        inArray(
          products.id,
          contents.map((c) => c.productId),
        ),
      );
    expect(new Set(authors.map((a) => a.nickname)).size).toBeGreaterThan(1);
    for (const i of history[0].items as { info: { id: number; authorNickname: string }; seller: { nickname: string } }[]) {
      const author = authors.find((a) => a.id === i.info.id)!.nickname;
      expect([i.info.authorNickname, i.seller.nickname]).toEqual([author, author]);
    }
    expect(history[0].items[0].info.tags.every((tag: { name: string }) => typeof tag.name === 'string')).toBe(true);
    // The purchase answers with the order exactly as the history shows it (built from what was written).
    expect(history[0]).toEqual(order);
    expect(history[1]).toEqual(p.json().payload.order);
    const usd = (await b.client.get('/api/purchase/history?currency=USD')).json().payload;
    // Paid in euros, it stays in euros; the chosen currency's amount today is a hint (issue 18 bug 7).
    expect(usd[0]).toMatchObject({
      currencyCode: 'EUR',
      amount: Number(pack!.priceMinor) / 100,
      today: { currencyCode: 'USD', amount: Math.round(Number(pack!.priceMinor) * 1.08) / 100 },
    });
  });

  it('Idempotency-Key: the same key returns the first answer and charges once', async () => {
    const images = await seededProducts(t.app, 'image');
    const image = images[2]!;
    const b = await buyer(Number(image.priceMinor) * 3);
    const headers = { 'idempotency-key': 'buy-once-123' };
    const first = await b.client.post('/api/purchase/buy', { item_id: image.id }, headers);
    const second = await b.client.post('/api/purchase/buy', { item_id: image.id }, headers);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await balanceMinor(t.app, b.id)).toBe(Number(image.priceMinor) * 2);
    expect((await b.client.get('/api/purchase/history')).json().payload).toHaveLength(1);
    const other = await b.client.post('/api/purchase/buy', { item_id: images[3]!.id }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe('This Idempotency-Key was already used for a different request.');
    // Another user may use the same key for their own request.
    const c = await buyer(Number(image.priceMinor));
    expect((await c.client.post('/api/purchase/buy', { item_id: image.id }, headers)).statusCode).toBe(200);
  });

  it('issue 31: a purchase whose answer was lost is looked up by its Idempotency-Key, only by its buyer', async () => {
    const images = await seededProducts(t.app, 'image');
    const image = images[4]!;
    const b = await buyer(Number(image.priceMinor) * 2);
    const bought = await b.client.post('/api/purchase/buy', { item_id: image.id }, { 'idempotency-key': 'lost-answer-1' });
    expect(bought.statusCode).toBe(200);

    const found = await b.client.post('/api/purchase/lookup', { idempotency_key: 'lost-answer-1' });
    expect(found.statusCode).toBe(200);
    expect(found.json().payload).toEqual({ outcome: 'bought', order: bought.json().payload.order });

    // Another user asking with the same key learns nothing of the first buyer's order.
    const other = await buyer();
    const theirs = await other.client.post('/api/purchase/lookup', { idempotency_key: 'lost-answer-1' });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().payload).toEqual({ outcome: 'not_charged' });
    expect(JSON.stringify(theirs.json())).not.toContain(image.title);

    // A purchase that never arrived: nothing charged, and the key is closed, so a late copy of it cannot charge.
    const before = await balanceMinor(t.app, b.id);
    expect((await b.client.post('/api/purchase/lookup', { idempotency_key: 'never-arrived-2' })).json().payload).toEqual({ outcome: 'not_charged' });
    const late = await b.client.post('/api/purchase/buy', { item_id: images[5]!.id }, { 'idempotency-key': 'never-arrived-2' });
    expect(late.statusCode).toBe(422);
    expect(await balanceMinor(t.app, b.id)).toBe(before);
    expect((await b.client.get('/api/purchase/history')).json().payload).toHaveLength(1);

    // A guest is refused; a malformed key is a 422 under its field.
    expect((await new TestClient(t.app).post('/api/purchase/lookup', { idempotency_key: 'lost-answer-1' })).statusCode).toBe(401);
    const bad = await b.client.post('/api/purchase/lookup', { idempotency_key: 'has space' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.idempotency_key).toBeTruthy();
  });

  it('issue 31: a lookup racing its purchase agrees with it: bought and charged, or not charged and refused', async () => {
    const images = await seededProducts(t.app, 'image');
    expect(images.length).toBeGreaterThan(8);
    for (const [i, image] of images.slice(6, 9).entries()) {
      const b = await buyer(Number(image.priceMinor));
      const key = `race-${i}-${Date.now()}`;
      const [bought, looked] = await Promise.all([
        b.client.post('/api/purchase/buy', { item_id: image.id }, { 'idempotency-key': key }),
        b.client.post('/api/purchase/lookup', { idempotency_key: key }),
      ]);
      const outcome = looked.json().payload.outcome as string;
      if (outcome === 'bought') {
        expect(bought.statusCode).toBe(200);
        expect(await balanceMinor(t.app, b.id)).toBe(0);
      } else {
        expect(outcome).toBe('not_charged');
        // The lookup closed the key first: the purchase that came after is refused, nothing charged.
        expect(bought.statusCode).toBe(422);
        expect(await balanceMinor(t.app, b.id)).toBe(Number(image.priceMinor));
      }
    }
  });

  it("a sale rings the author's bell, in the purchase's transaction; a platform-owned sale earns no notice", async () => {
    const [, image] = await seededProducts(t.app, 'image');
    const { authorId, price } = await authorOf(image!.id);
    const sales = async () =>
      t.app.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, authorId), eq(notifications.kind, 'sale_made')));
    const before = (await sales()).length;
    const refused = await buyer(price - 1);
    expect((await refused.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBe(422);
    expect(await sales()).toHaveLength(before);
    const b = await buyer(price);
    expect((await b.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBe(200);
    const after = await sales();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      text: `You sold "${image!.title}" (${(price / 100).toFixed(2)} €).`,
      link: '/dashboard/sales',
      data: { params: { title: image!.title, count: 1, amount_minor: price } },
    });

    await t.app.db.update(products).set({ platformOwned: true }).where(eq(products.id, image!.id));
    const c = await buyer(price);
    expect((await c.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBe(200);
    expect(await sales()).toHaveLength(before + 1);
    await t.app.db.update(products).set({ platformOwned: false }).where(eq(products.id, image!.id));
  });

  it('a platform-owned product credits revenue in full', async () => {
    const [, , , , image] = await seededProducts(t.app, 'image');
    await t.app.db.update(products).set({ platformOwned: true }).where(eq(products.id, image!.id));
    const { authorId, price } = await authorOf(image!.id);
    const b = await buyer(price);
    const authorBefore = await pendingMinor(t.app, authorId);
    const revenueBefore = await revenueMinor(t.app);
    expect((await b.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBe(200);
    expect(await pendingMinor(t.app, authorId)).toBe(authorBefore);
    expect(await revenueMinor(t.app)).toBe(revenueBefore + price);
    await t.app.db.update(products).set({ platformOwned: false }).where(eq(products.id, image!.id));
  });

  it("sales credit the buyer's revenue account; the platform's revenue is the sum of its accounts and the ledger balances", async () => {
    const [, , , , , , image] = await seededProducts(t.app, 'image');
    const [, , doc] = await seededProducts(t.app, 'doc');
    const { price: imagePrice } = await authorOf(image!.id);
    const { price: docPrice } = await authorOf(doc!.id);
    const first = await buyer(imagePrice);
    const second = await buyer(docPrice);
    expect(revenueAccountCode(first.id)).not.toBe(revenueAccountCode(second.id));
    const revenueBefore = await revenueMinor(t.app);
    const shardBalance = async (buyerId: number) => {
      const [row] = await t.app.db
        .select()
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.code, revenueAccountCode(buyerId)));
      return { kind: row?.kind, balance: Number(row?.balanceMinor ?? 0), allowNegative: row?.allowNegative };
    };
    const firstShardBefore = (await shardBalance(first.id)).balance;
    expect((await first.client.post('/api/purchase/buy', { item_id: image!.id })).statusCode).toBe(200);
    expect((await second.client.post('/api/purchase/buy', { item_id: doc!.id })).statusCode).toBe(200);
    const commissions = Math.round(imagePrice * 0.2) + Math.round(docPrice * 0.2);
    expect(await revenueMinor(t.app)).toBe(revenueBefore + commissions);
    expect(await shardBalance(first.id)).toEqual({ kind: 'platform_revenue', balance: firstShardBefore + Math.round(imagePrice * 0.2), allowNegative: false });
    expect((await shardBalance(second.id)).kind).toBe('platform_revenue');
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});

describe('downloads', () => {
  it('the buyer downloads the original (whole and by range), a prompt as .txt; others 404, guests 401', async () => {
    const [image] = await seededProducts(t.app, 'image');
    const [doc] = await seededProducts(t.app, 'doc');
    const [, prompt] = await seededProducts(t.app, 'prompt');
    const b = await buyer(Number(image!.priceMinor) + Number(doc!.priceMinor) + Number(prompt!.priceMinor));
    const orderImage = (await b.client.post('/api/purchase/buy', { item_id: image!.id })).json().payload.order;
    const orderDoc = (await b.client.post('/api/purchase/buy', { item_id: doc!.id })).json().payload.order;
    const orderPrompt = (await b.client.post('/api/purchase/prompt', { prompt_id: prompt!.id })).json().payload.order;

    const original = await t.app.storage.openPrivate(image!.originalPath!);
    const chunks: Buffer[] = [];
    for await (const c of original!.stream) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);

    const res = await b.client.get(orderImage.items[0].info.doc_url_orig);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[\w.-]+\.png"/);
    expect(res.rawPayload.equals(bytes)).toBe(true);

    const part = await b.client.get(orderImage.items[0].info.doc_url_orig, { range: 'bytes=10-19' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-19/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);
    const bad = await b.client.get(orderImage.items[0].info.doc_url_orig, { range: `bytes=${bytes.length + 5}-` });
    expect(bad.statusCode).toBe(416);

    const docRes = await b.client.get(orderDoc.items[0].info.doc_url_orig);
    expect(docRes.statusCode).toBe(200);
    expect(docRes.body).toContain(doc!.title);

    const promptRes = await b.client.get(orderPrompt.items[0].info.doc_url_orig);
    expect(promptRes.statusCode).toBe(200);
    expect(promptRes.headers['content-disposition']).toMatch(/filename="[\w.-]+\.txt"/);
    expect(promptRes.body).toBe(`${prompt!.promptText}\n`);

    const other = await buyer();
    const stranger = await other.client.get(orderImage.items[0].info.doc_url_orig);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().status).toBe('ERROR');
    expect((await b.client.get(`/api/user/media/download?id=${orderImage.id}&product_id=${doc!.id}`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(orderImage.items[0].info.doc_url_orig)).statusCode).toBe(401);
    expect((await b.client.get('/api/user/media/download?id=x&product_id=1')).statusCode).toBe(422);
  });

  it('the ledger is exact after everything above', async () => {
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
