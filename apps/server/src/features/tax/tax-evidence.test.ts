import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerSeller } from '../../../test/accounts';
import { fund } from '../../../test/commerce';
import { cityDatabase } from '../../../test/mmdb-writer';
import { paidByCard } from '../../../test/payments';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { orders, products } from '../../db/schema';
import { setSetting } from '../../lib/settings';

/**
 * The buyer's country from disagreeing evidence (issue 33): the address (GEOIP_DB) says Austria, the
 * card Germany. The purchase asks the buyer to choose; their choice (the profile's country) is kept
 * with the order's evidence and decides the VAT.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atelier-geoip-'));
  await writeFile(path.join(dir, 'city.mmdb'), cityDatabase('127.0.0.0/16', 'Vienna', 'Austria', 'AT'));
  t = await createTestApp({ env: { GEOIP_DB: path.join(dir, 'city.mmdb') } });
  await setSetting(t.app.db, 'is_reg_enabled', true);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('evidence that disagrees', () => {
  it('a German card from an Austrian address: the buyer is asked, chooses Austria, and pays Austrian VAT with the choice kept', async () => {
    const creator = await registerSeller(t.app);
    const buyer = await registerPerson(t.app);
    await paidByCard(t.app, buyer.id, 'DE');
    await fund(t.app, buyer.id, 1200);
    const [product] = await t.app.db
      .insert(products)
      .values({ slug: `evidence-${Date.now()}`, title: 'Evidence prompt', productType: 'prompt', promptText: 'A fox', authorId: creator.id, priceMinor: 1200 })
      .returning({ id: products.id });

    expect((await buyer.client.get('/api/user/tax')).json().payload).toEqual({
      country: null,
      rate: 0,
      list_rate: 0,
      reverse_charge: false,
      choices: ['DE', 'AT'],
    });
    const asked = await buyer.client.post('/api/purchase/prompt', { prompt_id: product!.id });
    expect(asked.statusCode).toBe(422);
    expect(asked.json().errors.tax_country[0]).toBe('Where you are is unclear (DE, AT): please choose your country for VAT in your profile, then buy again.');

    expect((await buyer.client.put('/api/user/tax-country', { country: 'at' })).json().payload).toEqual({ tax_country: 'AT', vat_number: null });
    const bought = await buyer.client.post('/api/purchase/prompt', { prompt_id: product!.id });
    expect(bought.statusCode).toBe(200);
    // 12.00 € at 20 %: VAT 2.00 €.
    expect(bought.json().payload.order.tax).toEqual({ country: 'AT', rate: 20, net_minor: 1000, vat_minor: 200, reverse_charge: false });
    const [order] = await t.app.db.select({ evidence: orders.taxEvidence }).from(orders).where(eq(orders.id, bought.json().payload.order.id));
    expect(order!.evidence).toEqual({ card: 'DE', address: 'AT', profile: 'AT', basis: 'agree' });
  });
});
