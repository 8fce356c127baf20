import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { balanceMinor, firstCategoryId, fund, pendingMinor, revenueMinor } from '../../../test/commerce';
import { pdfText } from '../../../test/pdf';
import { TestClient, useTestApp } from '../../../test/test-app';
import { unzip } from '../../../test/zip';
import { ledgerEntries, ledgerTransactions, offers, orderItems, products, userProducts } from '../../db/schema';
import { checkLedger } from '../ledger';

/** Issue 34, licence tiers: personal, commercial (the default) and extended, each with its price; upgrades for the difference. */
const t = useTestApp({ seed: true });
let categoryId: number;
beforeAll(async () => {
  categoryId = await firstCategoryId(t.app);
});

const png = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc6633' } })
    .png()
    .toBuffer();

/** A creator's approved listing of a PNG at `price` EUR: the offer's id and its product. */
async function listing(title: string, price = '20.00') {
  const creator = await registerSeller(t.app);
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const fields: Record<string, string> = {
    title,
    description: 'Warm light.',
    category_id: String(categoryId),
    price,
    confirm: 'true',
    keywords: 'Impressionism',
    deal_type: 'listing',
  };
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="media"; filename="art.png"\r\nContent-Type: image/png\r\n\r\n`));
  parts.push(await png(), Buffer.from(`\r\n--${boundary}--\r\n`));
  const created = await creator.client.request('POST', '/api/offer/create', {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(created.statusCode).toBe(200);
  const offerId = created.json().payload.id as number;
  const staff = await registerStaff(t.app);
  expect((await staff.client.post(`/api/admin/offers/${offerId}/approve`)).statusCode).toBe(200);
  const [offer] = await t.app.db.select().from(offers).where(eq(offers.id, offerId));
  const [product] = await t.app.db.select().from(products).where(eq(products.id, offer!.productId!));
  return { creator, offerId, product: product! };
}

async function lines(orderId: number) {
  return t.app.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
}

describe('licence tiers', () => {
  it('the creator sets the tier prices on the listing; bad prices are a 422 per field; the product page lists the licences', async () => {
    const { creator, offerId, product } = await listing('Tiers at dawn');
    const url = `/api/offer/${offerId}/listing`;
    // Personal must be below the price, extended above it, each at least 0.50 €.
    const bad = await creator.client.patch(url, { price: 20, personal_price: 25, extended_price: 15 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      personal_price: ['The personal licence must cost less than the commercial licence (the price).'],
      extended_price: ['The extended licence must cost more than the commercial licence (the price).'],
    });
    const tiny = await creator.client.patch(url, { price: 20, personal_price: 0.3 });
    expect(tiny.statusCode).toBe(422);
    expect(tiny.json().errors.personal_price).toEqual(['The personal licence price must be at least 0.50 €.']);
    // Someone else cannot price another creator's listing.
    const other = await registerSeller(t.app);
    expect((await other.client.patch(url, { price: 20, personal_price: 5 })).statusCode).toBe(404);

    const saved = await creator.client.patch(url, { price: 20, personal_price: 8, extended_price: 60 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payload).toMatchObject({ user_price: 20, personal_price: 8, extended_price: 60 });
    const mine = (await creator.client.get('/api/offer/history')).json().payload as { id: number; personal_price: number | null }[];
    expect(mine.find((o) => o.id === offerId)).toMatchObject({ personal_price: 8, extended_price: 60 });
    const info = (await new TestClient(t.app).get(`/api/products/${product.slug}/info`)).json().payload;
    expect(info.licences).toEqual([
      { tier: 'personal', price: 8 },
      { tier: 'commercial', price: 20 },
      { tier: 'extended', price: 60 },
    ]);
    // Absent keeps a tier, null stops offering it.
    expect((await creator.client.patch(url, { price: 20, extended_price: null })).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(products).where(eq(products.id, product.id));
    expect(row).toMatchObject({ priceMinor: 2000, personalPriceMinor: 800, extendedPriceMinor: null });
  });

  it('a buyer buys the extended licence at its price; the order records it and the ZIP download carries LICENCE.txt', async () => {
    const { creator, offerId, product } = await listing('Harbour licence');
    expect((await creator.client.patch(`/api/offer/${offerId}/listing`, { price: 20, personal_price: 8, extended_price: 60 })).statusCode).toBe(200);
    const buyer = await registerPerson(t.app, { name: 'Ines', surname: 'Duarte' });
    await fund(t.app, buyer.id, 10000);

    // A tier the work does not have, and a made-up tier, are 422s on licence_tier; nothing is charged.
    await t.app.db.update(products).set({ personalPriceMinor: null }).where(eq(products.id, product.id));
    const notOffered = await buyer.client.post('/api/purchase/buy', { item_id: product.id, licence_tier: 'personal' });
    expect(notOffered.statusCode).toBe(422);
    expect(notOffered.json().errors.licence_tier).toEqual(['This work is not offered with the personal licence.']);
    const madeUp = await buyer.client.post('/api/purchase/buy', { item_id: product.id, licence_tier: 'royal' });
    expect(madeUp.statusCode).toBe(422);
    expect(madeUp.json().errors.licence_tier).toEqual(['The licence must be personal, commercial or extended.']);
    expect(await balanceMinor(t.app, buyer.id)).toBe(10000);

    const bought = await buyer.client.post('/api/purchase/buy', { item_id: product.id, licence_tier: 'extended' });
    expect(bought.statusCode).toBe(200);
    const order = bought.json().payload.order;
    expect(order.amount).toBe(60);
    expect(order.items).toEqual([expect.objectContaining({ price: 60, licence_tier: 'extended', upgraded_from: null })]);
    expect(await balanceMinor(t.app, buyer.id)).toBe(4000);
    const [line] = await lines(order.id);
    expect(line).toMatchObject({ licenceTier: 'extended', priceMinor: 6000 });
    // The split is taken from the tier's price, and the creator's pending earnings are their share of it.
    expect(Number(line!.sellerMinor) + Number(line!.commissionMinor) + Number(line!.vatMinor)).toBe(6000);
    expect(await pendingMinor(t.app, creator.id)).toBe(Number(line!.sellerMinor));
    // The receipt names the licence bought.
    await expect
      .poll(
        async () => {
          await t.app.jobs.runDue();
          return (await lastMailTo(t.app, buyer.email))?.subject;
        },
        { timeout: 3000, interval: 50 },
      )
      .toBe(`Your Atelier order #${order.id}`);
    expect((await lastMailTo(t.app, buyer.email))!.text).toContain('Harbour licence: 60.00 €, extended licence');
    const history = (await buyer.client.get('/api/purchase/history')).json().payload;
    expect(history[0].items[0].licence_tier).toBe('extended');
    const owned = (await buyer.client.get(`/api/purchase/owned?product_id=${product.id}`)).json().payload;
    expect(owned.licence_tier).toBe('extended');

    // The file alone (the default), and as a ZIP with its licence.
    const file = await buyer.client.get(`/api/user/media/download?id=${order.id}&product_id=${product.id}`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    const zip = await buyer.client.get(`/api/user/media/download?id=${order.id}&product_id=${product.id}&format=zip`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toMatch(/^attachment; filename="Harbour-licence\.zip"/);
    const entries = unzip(zip.rawPayload);
    expect([...entries.keys()].sort()).toEqual(['Harbour-licence.png', 'LICENCE.txt']);
    expect(entries.get('Harbour-licence.png')!.equals(file.rawPayload)).toBe(true);
    const licence = entries.get('LICENCE.txt')!.toString('utf8');
    expect(licence).toContain('EXTENDED LICENCE');
    expect(licence).toContain('Licensee: Ines Duarte');
    expect(licence).toContain('Work: Harbour licence');
    expect(licence).toContain('Licence: Extended licence (extended)');
    expect(licence).toContain(`Order number: ${order.id}`);
    expect(licence).toContain('/licences/extended');
    // The invoice names the licence sold on its line.
    const invoice = await buyer.client.get(`/api/orders/${order.id}/invoice.pdf`);
    expect(invoice.statusCode).toBe(200);
    expect(pdfText(invoice.rawPayload)).toContain('Harbour licence (Extended licence) by');

    // Nobody else gets the buyer's licence.
    const stranger = await registerPerson(t.app);
    expect((await stranger.client.get(`/api/user/media/download?id=${order.id}&product_id=${product.id}&format=zip`)).statusCode).toBe(404);
    expect((await buyer.client.get(`/api/user/media/download?id=${order.id}&product_id=${product.id}&format=tar`)).statusCode).toBe(422);
  });

  it('the cart keeps each line at its licence; a code discounts the tier price', async () => {
    const { creator, offerId, product } = await listing('Cart licence');
    expect((await creator.client.patch(`/api/offer/${offerId}/listing`, { price: 20, personal_price: 10 })).statusCode).toBe(200);
    const code = await creator.client.post('/api/seller/discounts', { code: 'TIER-10', kind: 'percent', value: 10, product_ids: [], automatic: false });
    expect(code.statusCode).toBe(200);
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 5000);
    const ext = await buyer.client.post('/api/cart/items', { product_id: product.id, product_type: 'image', licence_tier: 'extended' });
    expect(ext.statusCode).toBe(422);
    expect(ext.json().errors.licence_tier).toEqual(['This work is not offered with the extended licence.']);
    const added = await buyer.client.post('/api/cart/items', { product_id: product.id, product_type: 'image', licence_tier: 'personal' });
    expect(added.statusCode).toBe(200);
    expect(added.json().payload.items).toEqual([
      expect.objectContaining({
        licence_tier: 'personal',
        price: 10,
        licences: [
          { tier: 'personal', price: 10 },
          { tier: 'commercial', price: 20 },
        ],
      }),
    ]);
    // The price preview of the buy dialog prices the licence with the code, as the purchase will.
    const preview = await buyer.client.get(`/api/products/${product.id}/price?licence_tier=personal&discount_code=TIER-10`);
    expect(preview.json().payload).toMatchObject({ list_price: 10, price: 9 });
    expect((await buyer.client.get(`/api/products/${product.id}/price?licence_tier=extended`)).statusCode).toBe(422);
    const paid = await buyer.client.post('/api/cart/purchase', { discount_code: 'TIER-10' });
    expect(paid.statusCode).toBe(200);
    const order = paid.json().payload.order;
    expect(order.items).toEqual([expect.objectContaining({ price: 9, licence_tier: 'personal' })]);
    expect(order.discounts).toEqual([expect.objectContaining({ list_price: 10, discount: 1 })]);
    expect(await balanceMinor(t.app, buyer.id)).toBe(4100);
  });

  it('the owner of the personal licence upgrades to extended for the difference; the ledger is exact; its refund gives back that line only', async () => {
    const { creator, offerId, product } = await listing('Upgrade me');
    expect((await creator.client.patch(`/api/offer/${offerId}/listing`, { price: 20, personal_price: 8, extended_price: 60 })).statusCode).toBe(200);
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 10000);
    const first = await buyer.client.post('/api/purchase/buy', { item_id: product.id, licence_tier: 'personal' });
    expect(first.statusCode).toBe(200);
    const firstOrder = first.json().payload.order;
    expect(firstOrder.amount).toBe(8);
    // Buying it again is refused: the owner upgrades instead.
    expect((await buyer.client.post('/api/purchase/buy', { item_id: product.id, licence_tier: 'extended' })).statusCode).toBe(422);

    // A second user cannot upgrade what they do not own; a lower or equal tier is a 422.
    const other = await registerPerson(t.app);
    await fund(t.app, other.id, 10000);
    const foreign = await other.client.post('/api/purchase/upgrade', { product_id: product.id, licence_tier: 'extended' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('You do not own this work: buy it first.');
    expect(await balanceMinor(t.app, other.id)).toBe(10000);
    const same = await buyer.client.post('/api/purchase/upgrade', { product_id: product.id, licence_tier: 'personal' });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors.licence_tier).toEqual(['You own the personal licence already: choose a wider licence to upgrade to.']);

    const revenueBefore = await revenueMinor(t.app);
    const pendingBefore = await pendingMinor(t.app, creator.id);
    const up = await buyer.client.post('/api/purchase/upgrade', { product_id: product.id, licence_tier: 'extended' });
    expect(up.statusCode).toBe(200);
    const upOrder = up.json().payload.order;
    // Charged the difference: 60 − 8.
    expect(upOrder.amount).toBe(52);
    expect(upOrder.items).toEqual([expect.objectContaining({ price: 52, licence_tier: 'extended', upgraded_from: 'personal' })]);
    expect(await balanceMinor(t.app, buyer.id)).toBe(10000 - 800 - 5200);
    const [upLine] = await lines(upOrder.id);
    expect(upLine).toMatchObject({ priceMinor: 5200, licenceTier: 'extended', upgradedFrom: 'personal' });
    // The split of the difference, through the one sale writer: the creator's share and the commission, exactly.
    expect(await pendingMinor(t.app, creator.id)).toBe(pendingBefore + Number(upLine!.sellerMinor));
    expect(await revenueMinor(t.app)).toBe(revenueBefore + Number(upLine!.commissionMinor));
    const [tx] = await t.app.db
      .select()
      .from(ledgerTransactions)
      .where(and(eq(ledgerTransactions.subjectType, 'order'), eq(ledgerTransactions.subjectId, upOrder.id)));
    expect(tx).toMatchObject({ kind: 'sale' });
    const entries = await t.app.db.select().from(ledgerEntries).where(eq(ledgerEntries.transactionId, tx!.id));
    expect(entries.reduce((s, e) => s + Number(e.amountMinor), 0)).toBe(0);
    const [own] = await t.app.db
      .select()
      .from(userProducts)
      .where(and(eq(userProducts.userId, buyer.id), eq(userProducts.productId, product.id)));
    expect(own).toMatchObject({ licenceTier: 'extended', orderId: firstOrder.id });
    // Nothing wider to upgrade to.
    expect((await buyer.client.post('/api/purchase/upgrade', { product_id: product.id, licence_tier: 'extended' })).statusCode).toBe(422);

    // The first order's download now carries the extended licence and names the upgrade.
    const zip = await buyer.client.get(`/api/user/media/download?id=${firstOrder.id}&product_id=${product.id}&format=zip`);
    const licence = unzip(zip.rawPayload).get('LICENCE.txt')!.toString('utf8');
    expect(licence).toContain('Licence: Extended licence (extended)');
    expect(licence).toContain(`Order number: ${firstOrder.id} (upgraded by order number ${upOrder.id})`);

    // The first licence is not refunded under a standing upgrade: the upgrade first.
    const early = await buyer.client.post(`/api/orders/${firstOrder.id}/refund-request`, { reason: 'other', message: 'Not what I wanted.' });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors.product_id).toEqual([`This licence was upgraded afterwards: ask for a refund of the upgrade (order #${upOrder.id}) first.`]);

    // The refund of the upgrade gives back exactly its line, and the buyer keeps the personal licence.
    const request = await buyer.client.post(`/api/orders/${upOrder.id}/refund-request`, { reason: 'other', message: 'Wrong licence, sorry.' });
    expect(request.statusCode).toBe(200);
    const accepted = await creator.client.post(`/api/refund-requests/${request.json().payload.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(10000 - 800);
    expect(await pendingMinor(t.app, creator.id)).toBe(pendingBefore);
    expect(await revenueMinor(t.app)).toBe(revenueBefore);
    const owned = (await buyer.client.get(`/api/purchase/owned?product_id=${product.id}`)).json().payload;
    expect(owned).toMatchObject({ owned: true, order_id: firstOrder.id, licence_tier: 'personal' });
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });

  it('two upgrades at once: one is charged, the other refused; the ledger stays exact', async () => {
    const { creator, offerId, product } = await listing('Upgrade race');
    expect((await creator.client.patch(`/api/offer/${offerId}/listing`, { price: 20, personal_price: 8, extended_price: 60 })).statusCode).toBe(200);
    const buyer = await registerPerson(t.app);
    await fund(t.app, buyer.id, 20000);
    expect((await buyer.client.post('/api/purchase/buy', { item_id: product.id, licence_tier: 'personal' })).statusCode).toBe(200);
    const answers = await Promise.all([
      buyer.client.post('/api/purchase/upgrade', { product_id: product.id, licence_tier: 'extended' }),
      buyer.client.post('/api/purchase/upgrade', { product_id: product.id, licence_tier: 'extended' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    expect(await balanceMinor(t.app, buyer.id)).toBe(20000 - 800 - 5200);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
