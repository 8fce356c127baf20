import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { seededProducts } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { userAccountId } from './index';

const t = useTestApp({ seed: true, registration: true });

const year = String(new Date().getUTCFullYear() + 2);

/** Adds funds as a buyer does: checkout, then the sandbox's hosted card page. */
async function addFunds(client: TestClient, amount: number) {
  const started = (await client.post('/api/deposit/checkout', { amount, currency: 'EUR', payment_method: 'sandbox-card' })).json().payload;
  const path = new URL(started.redirect_url).pathname;
  const page = await t.app.inject({ method: 'GET', url: path });
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)![1]!.replaceAll('&amp;', '&');
  const paid = await t.app.inject({
    method: 'POST',
    url: action,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ card_number: '4242424242424242', exp_month: '12', exp_year: year, cvc: '123' }).toString(),
  });
  expect(paid.statusCode).toBe(303);
}

type Line = {
  kind: string;
  description: string;
  description_code?: string;
  amount_minor: number;
  balance_after_minor: number;
  link: string | null;
  display: { currency: string };
};

describe('issue 18: a statement of every movement', () => {
  it('lists deposits, purchases and staff adjustments newest first with the running balance, and as CSV', async () => {
    const buyer = await registerPerson(t.app);
    await addFunds(buyer.client, 30);
    const [image] = await seededProducts(t.app, 'image');
    const bought = await buyer.client.post('/api/purchase/buy', { item_id: image!.id });
    expect(bought.statusCode).toBe(200);
    const staff = await registerStaff(t.app);
    const adjust = await staff.client.post('/api/admin/ledger/adjustments', {
      account_id: await userAccountId(t.app.db, buyer.id),
      amount: 2.5,
      reason: 'Goodwill after a slow download',
    });
    expect(adjust.statusCode).toBe(200);

    const res = await buyer.client.get('/api/balance/statement');
    expect(res.statusCode).toBe(200);
    const { payload, meta } = res.json() as { payload: Line[]; meta: { total: number; pages: number; page: number } };
    const price = Number(image!.priceMinor);
    expect(payload.map((l) => [l.kind, l.amount_minor, l.balance_after_minor])).toEqual([
      ['adjustment', 250, 3000 - price + 250],
      ['purchase', -price, 3000 - price],
      ['deposit', 3000, 3000],
    ]);
    expect(payload[0]!.description).toBe('Adjustment: Goodwill after a slow download');
    expect(payload[1]!.description).toBe(`Purchase: ${image!.title}`);
    expect(payload[1]!.link).toBe('/dashboard/orders');
    expect(payload[2]!.description).toBe('Funds added by card');
    // Issue 31: each description also travels as its key and values, for the web app to translate.
    expect(payload[0]!.description_code).toBe('statement.adjustment_note?note=Goodwill+after+a+slow+download');
    expect(payload[2]!.description_code).toBe('statement.deposit');
    expect(meta).toMatchObject({ total: 3, pages: 1, page: 1 });
    // The last line's balance is the balance shown everywhere else.
    expect((await buyer.client.get('/api/balance')).json().payload.amount_minor).toBe(payload[0]!.balance_after_minor);

    const inUsd = (await buyer.client.get('/api/balance/statement?currency=USD')).json().payload as Line[];
    expect(inUsd[0]!.display.currency).toBe('USD');
    expect(inUsd[0]!.amount_minor).toBe(250);

    const csv = await buyer.client.get('/api/balance/statement.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    // Issue 31: each column once, and amounts as plain numbers a spreadsheet adds up (no leading quote).
    expect(rows[0]).toBe('date,kind,description,amount_eur,balance_after_eur');
    expect(rows.slice(1).map((r) => r.split(',')[1])).toEqual(['adjustment', 'purchase', 'deposit']);
    expect(rows[2]!.split(',')[3]).toBe((-price / 100).toFixed(2));
    const usd = (await buyer.client.get('/api/balance/statement.csv?currency=USD')).body.trim().split('\r\n');
    expect(usd[0]).toBe('date,kind,description,amount_eur,balance_after_eur,amount_usd,balance_after_usd');
    expect(Number(usd[2]!.split(',')[5])).toBeLessThan(0);
  });

  it('each user sees only their own movements; a guest gets 401; a bad page is a 422 with a message', async () => {
    const a = await registerPerson(t.app);
    await addFunds(a.client, 12);
    const b = await registerPerson(t.app);
    const seen = await b.client.get('/api/balance/statement');
    expect(seen.json()).toMatchObject({ payload: [], meta: { total: 0 } });
    expect((await a.client.get('/api/balance/statement')).json().payload).toHaveLength(1);
    expect((await new TestClient(t.app).get('/api/balance/statement')).statusCode).toBe(401);
    expect((await new TestClient(t.app).get('/api/balance/statement.csv')).statusCode).toBe(401);
    const bad = await a.client.get('/api/balance/statement?page=0');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.page).toEqual(['The page must be a whole number from 1.']);
    // The same page rule as the catalogue's, favourites' and reviews' lists.
    expect((await a.client.get('/api/balance/statement?page=100001')).json().errors.page).toEqual(['The page is too large.']);
  });
});

describe('issue 30: a typed journal', () => {
  it('each movement carries its kind and subject, and the statement reads them, not the reason', async () => {
    const buyer = await registerPerson(t.app);
    await addFunds(buyer.client, 30);
    const [image] = await seededProducts(t.app, 'image');
    const bought = await buyer.client.post('/api/purchase/buy', { item_id: image!.id });
    expect(bought.statusCode).toBe(200);
    const orderId = Number(bought.json().payload.order.id);
    const staff = await registerStaff(t.app);
    // Staff words that read like another kind of movement stay an adjustment.
    const adjust = await staff.client.post('/api/admin/ledger/adjustments', {
      account_id: await userAccountId(t.app.db, buyer.id),
      amount: 1,
      reason: 'withdrawal returned by hand',
    });
    expect(adjust.statusCode).toBe(200);

    const rows = rowsOf<{ kind: string; subject_type: string | null; subject_id: string | number | null; note: string | null }>(
      await t.app.db.execute(sql`
        select t.kind, t.subject_type, t.subject_id, t.note from ledger_transactions t
        where t.id in (select e.transaction_id from ledger_entries e join ledger_accounts a on a.id = e.account_id where a.user_id = ${buyer.id})
        order by t.id`),
    );
    expect(rows.map((r) => [r.kind, r.subject_type, r.subject_id === null ? null : Number(r.subject_id), r.note])).toEqual([
      ['deposit', 'deposit', expect.any(Number), null],
      ['sale', 'order', orderId, null],
      ['adjustment', 'staff', staff.id, 'withdrawal returned by hand'],
    ]);
    const statement = (await buyer.client.get('/api/balance/statement')).json().payload as Line[];
    expect(statement.map((l) => [l.kind, l.description])).toEqual([
      ['adjustment', 'Adjustment: withdrawal returned by hand'],
      ['purchase', `Purchase: ${image!.title}`],
      ['deposit', 'Funds added by card'],
    ]);
  });
});
