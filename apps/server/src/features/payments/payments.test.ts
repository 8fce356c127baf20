import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, registerUser } from '../../../test/accounts';
import { balanceMinor, userIdByEmail } from '../../../test/commerce';
import { createTestApp, type TestApp, TestClient, useTestApp } from '../../../test/test-app';
import { deposits } from '../../db/schema';
import { setSetting } from '../../lib/settings';
import { checkLedger, totalUserBalances } from '../ledger';
import { creditedDepositsTotal, expireStaleDeposits } from './deposits';
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from './sandbox/sandbox-provider';

const t = useTestApp({ seed: true });

async function user() {
  const { client, person } = await registerUser(t.app);
  return { client, person, id: await userIdByEmail(t.app, person.email) };
}

/** A browser on the hosted page: no XSRF header, just the form. */
function postForm(path: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

const year = String(new Date().getUTCFullYear() + 2);
const card = (number: string) => ({ card_number: number, exp_month: '12', exp_year: year, cvc: '123' });
const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');

async function checkout(client: TestClient, amount = 25, currency = 'EUR', method = 'sandbox-card') {
  const res = await client.post('/api/deposit/checkout', { amount, currency, payment_method: method });
  expect(res.statusCode).toBe(200);
  return res.json().payload as { order_id: number; status: string; redirect_url?: string; widget_data?: Record<string, string> };
}

async function status(client: TestClient, id: number) {
  return (await client.get(`/api/deposit/status?order_id=${id}`)).json().payload;
}

function webhook(raw: string, signature: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/webhook/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    payload: raw,
  });
}

describe('deposit calls', () => {
  it('a guest gets 401', async () => {
    const guest = new TestClient(t.app);
    expect((await guest.post('/api/deposit/validate-amount', { amount: 10, currency: 'EUR' })).statusCode).toBe(401);
    expect((await guest.post('/api/deposit/validate', { amount: 10, currency: 'EUR' })).statusCode).toBe(401);
    expect((await guest.post('/api/deposit/checkout', { amount: 10, currency: 'EUR', payment_method: 'sandbox-card' })).statusCode).toBe(401);
    expect((await guest.get('/api/deposit/status?order_id=1')).statusCode).toBe(401);
    expect((await guest.get('/api/deposit/history')).statusCode).toBe(401);
  });

  it('validate-amount: bounds, non-numbers and whole-only currencies are 422 under amount', async () => {
    const { client } = await user();
    const check = (amount: unknown, currency = 'EUR') => client.post('/api/deposit/validate-amount', { amount, currency });
    expect((await check(10)).json()).toMatchObject({ status: 'OK' });
    expect((await check(5)).statusCode).toBe(200);
    expect((await check(1000)).statusCode).toBe(200);
    const low = await check(4.99);
    expect(low.statusCode).toBe(422);
    expect(low.json().errors.amount).toEqual(['The amount must be between 5.00 € and 1000.00 €.']);
    expect((await check(1000.01)).json().errors.amount).toBeDefined();
    const nan = await check('abc');
    expect(nan.statusCode).toBe(422);
    expect(nan.json().errors.amount).toBeDefined();
    expect((await check(10.123)).json().errors.amount).toEqual(['The amount may have at most 2 decimals.']);
    const yen = await check(500.5, 'JPY');
    expect(yen.statusCode).toBe(422);
    expect(yen.json().errors.amount).toEqual(['For this currency, only whole numbers are allowed.']);
    // hole 6: the bounds are checked on the EUR value (5.00 € is 810 ¥ at 162).
    expect((await check(500, 'JPY')).json().errors.amount).toEqual(['The amount must be between 810 ¥ and 162000 ¥.']);
    expect((await check(810, 'JPY')).statusCode).toBe(200);
    expect((await check(10, 'XXX')).json().errors.currency).toBeDefined();
  });

  it('validate answers the payment methods; checkout refuses an unknown method', async () => {
    const { client } = await user();
    const res = await client.post('/api/deposit/validate', { amount: 20, currency: 'EUR' });
    expect(res.json().payload).toEqual([
      { id: 'sandbox-card', title: 'Card (test payment)', type: 'redirect' },
      { id: 'sandbox-widget', title: 'Card widget (test payment)', type: 'widget' },
    ]);
    expect((await client.post('/api/deposit/validate', { amount: 2, currency: 'EUR' })).statusCode).toBe(422);
    const bad = await client.post('/api/deposit/checkout', { amount: 20, currency: 'EUR', payment_method: 'cash' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.payment_method).toEqual(['Please choose a payment method.']);
  });

  it('checkout with an Idempotency-Key starts one deposit however often it is sent', async () => {
    const { client } = await user();
    const body = { amount: 20, currency: 'EUR', payment_method: 'sandbox-card' };
    const a = await client.post('/api/deposit/checkout', body, { 'idempotency-key': 'dep-1' });
    const b = await client.post('/api/deposit/checkout', body, { 'idempotency-key': 'dep-1' });
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect((await client.get('/api/deposit/history')).json().payload).toHaveLength(1);
  });

  it('status of another user’s deposit is 404; a bad id is 422', async () => {
    const a = await user();
    const b = await user();
    const started = await checkout(a.client);
    expect((await b.client.get(`/api/deposit/status?order_id=${started.order_id}`)).statusCode).toBe(404);
    expect((await a.client.get('/api/deposit/status?order_id=abc')).statusCode).toBe(422);
    expect(await status(a.client, started.order_id)).toEqual({ status: 'processing', error_message: null, redirect_url: null });
  });
});

describe('sandbox card payments', () => {
  it('4242… succeeds: the webhook credits the balance, the browser lands on processing-payment', async () => {
    const u = await user();
    const started = await checkout(u.client, 25);
    expect(started.status).toBe('processing');
    const path = new URL(started.redirect_url!).pathname;
    expect(path).toMatch(/^\/api\/payments\/sandbox\/pay\//);
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('TEST PAYMENT');
    for (const field of ['card_number', 'exp_month', 'exp_year', 'cvc']) expect(page.body).toContain(`name="${field}"`);

    const paid = await postForm(path, card('4242 4242 4242 4242'));
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${t.app.config.publicUrl}/processing-payment?order_id=${started.order_id}`);
    expect(await status(u.client, started.order_id)).toEqual({ status: 'success', error_message: null, redirect_url: null });
    expect(await balanceMinor(t.app, u.id)).toBe(2500);
    expect((await u.client.get('/api/balance')).json().payload.amount_minor).toBe(2500);

    // The token was single-use.
    const again = await postForm(path, card('4242424242424242'));
    expect(again.statusCode).toBe(410);
    // Not a dead end: the page leads back to Add Funds (the fail page's Try Again lands here).
    expect(again.body).toContain('<a href="/deposit/create">Add Funds</a>');
    expect(await balanceMinor(t.app, u.id)).toBe(2500);

    // Only the last four digits are kept.
    const [row] = await t.app.db.select().from(deposits).where(eq(deposits.id, started.order_id));
    expect(row).toMatchObject({ cardLast4: '4242', cardBrand: 'visa', status: 'success' });
    expect(JSON.stringify(row)).not.toContain('4242424242424242');

    const history = (await u.client.get('/api/deposit/history')).json().payload;
    expect(history).toEqual([
      {
        id: started.order_id,
        amount: 25,
        currency: 'EUR',
        currencySymbol: '€',
        status: 'success',
        payment_method: 'sandbox-card',
        // Issue 18: the name a person reads, never the id.
        payment_method_title: 'Card (test payment)',
        created_at: expect.any(Number),
      },
    ]);
    // The receipt is a job written with the credit: run what is due, as the worker would after commit.
    await expect
      .poll(
        async () => {
          await t.app.jobs.runDue();
          return (await lastMailTo(t.app, u.person.email))?.subject;
        },
        { timeout: 3000, interval: 50 },
      )
      .toBe(`Your Atelier deposit #${started.order_id}`);
    const receipt = await lastMailTo(t.app, u.person.email);
    expect(receipt?.text).toContain('card ending 4242');
  });

  it('4000…0002 is declined with the card message and nothing is credited', async () => {
    const u = await user();
    const started = await checkout(u.client, 30);
    const res = await postForm(new URL(started.redirect_url!).pathname, card('4000000000000002'));
    expect(res.statusCode).toBe(303);
    expect(await status(u.client, started.order_id)).toEqual({ status: 'failed', error_message: 'Your card was declined.', redirect_url: null });
    expect(await balanceMinor(t.app, u.id)).toBe(0);
  });

  it('a credited deposit rings the bell once; a declined one does not', async () => {
    const { client } = await user();
    const bell = async () => (await client.get('/api/notifications')).json().payload as { kind: string; text: string; link: string }[];
    const declined = await checkout(client, 12);
    await postForm(new URL(declined.redirect_url!).pathname, card('4000000000000002'));
    expect(await bell()).toEqual([]);
    const started = await checkout(client, 12);
    await postForm(new URL(started.redirect_url!).pathname, card('4242424242424242'));
    expect(await bell()).toEqual([
      expect.objectContaining({ kind: 'deposit_succeeded', text: 'Your deposit of 12.00 EUR is credited.', link: '/dashboard/deposits' }),
    ]);
  });

  it('4000…3220 asks for 3-D Secure: Complete credits, Fail does not', async () => {
    const u = await user();
    const first = await checkout(u.client, 40);
    const step = await postForm(new URL(first.redirect_url!).pathname, card('4000 0000 0000 3220'));
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('3-D Secure');
    expect(step.body).toContain('Complete');
    expect(step.body).toContain('Fail');
    expect((await status(u.client, first.order_id)).status).toBe('processing');
    const done = await postForm(formAction(step.body), { three_ds: 'complete' });
    expect(done.statusCode).toBe(303);
    expect((await status(u.client, first.order_id)).status).toBe('success');
    expect(await balanceMinor(t.app, u.id)).toBe(4000);

    const second = await checkout(u.client, 15);
    const step2 = await postForm(new URL(second.redirect_url!).pathname, card('4000000000003220'));
    const failed = await postForm(formAction(step2.body), { three_ds: 'fail' });
    expect(failed.statusCode).toBe(303);
    const s = await status(u.client, second.order_id);
    expect(s.status).toBe('failed');
    expect(s.error_message).toMatch(/unable to authenticate/);
    expect(await balanceMinor(t.app, u.id)).toBe(4000);
  });

  it('a wrong card form is shown again with SPEC messages, and the new form still works', async () => {
    const u = await user();
    const started = await checkout(u.client, 10, 'USD');
    const res = await postForm(new URL(started.redirect_url!).pathname, { card_number: '12', exp_month: '13', exp_year: '1999', cvc: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Please enter a valid card number');
    expect(res.body).toContain('Please enter a valid expiry month (1-12)');
    expect(res.body).toContain('Please enter a valid expiry year');
    const ok = await postForm(formAction(res.body), card('4242424242424242'));
    expect(ok.statusCode).toBe(303);
    // 10 USD at 1.08 per EUR: 9.26 EUR credited; the history shows what was paid.
    expect(await balanceMinor(t.app, u.id)).toBe(926);
    expect((await u.client.get('/api/deposit/history')).json().payload[0]).toMatchObject({ amount: 10, currency: 'USD', currencySymbol: '$' });
  });

  it('the widget method answers widget data whose script and page work', async () => {
    const u = await user();
    const started = await checkout(u.client, 12, 'EUR', 'sandbox-widget');
    expect(started.widget_data).toMatchObject({ public_key: 'pk_sandbox', payment_type: 'widget' });
    const script = await t.app.inject({ method: 'GET', url: new URL(started.widget_data!.checkout_url!).pathname });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('AtelierSandbox');
    const page = await t.app.inject({ method: 'GET', url: `/api/payments/sandbox/pay/${started.widget_data!.checkout}?embed=1` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('target="_top"');
    const paid = await postForm(formAction(page.body), card('4242424242424242'));
    expect(paid.statusCode).toBe(303);
    expect((await status(u.client, started.order_id)).status).toBe('success');
  });

  it('a forged or unknown token gets the expired page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/payments/sandbox/pay/1.cabcdefghijk.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.statusCode).toBe(410);
  });
});

describe('webhooks', () => {
  it('a replayed event is answered 200 and applied once', async () => {
    const u = await user();
    const started = await checkout(u.client, 50);
    const event = {
      id: 'evt_replay_1',
      type: 'payment.succeeded' as const,
      data: { deposit_id: started.order_id, card: { brand: 'visa', last4: '4242' }, amount_minor: 5000, currency: 'EUR' },
    };
    const { raw, signature } = signSandboxEvent(t.app.config, event);
    const first = await webhook(raw, signature);
    const second = await webhook(raw, signature);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json().payload.result).toBe('duplicate');
    // Another event for the same deposit does not credit it again either.
    const other = signSandboxEvent(t.app.config, { ...event, id: 'evt_replay_2' });
    expect((await webhook(other.raw, other.signature)).statusCode).toBe(200);
    expect(await balanceMinor(t.app, u.id)).toBe(5000);
  });

  it('a bad signature or a stale timestamp is a 400 and changes nothing', async () => {
    const u = await user();
    const started = await checkout(u.client, 20);
    const event = { id: 'evt_bad_1', type: 'payment.succeeded' as const, data: { deposit_id: started.order_id, amount_minor: 2000, currency: 'EUR' } };
    const { raw, signature } = signSandboxEvent(t.app.config, event);
    const tampered = raw.replace('"deposit_id"', '"deposit_id" ');
    expect((await webhook(tampered, signature)).statusCode).toBe(400);
    // One character of the MAC changed (always to a different one, so the test cannot pass by luck).
    const flipped = signature.replace(/v1=(\w)/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    expect(flipped).not.toBe(signature);
    expect((await webhook(raw, flipped)).statusCode).toBe(400);
    expect((await webhook(raw, 'nonsense')).statusCode).toBe(400);
    const stale = signSandboxEvent(t.app.config, event, Math.floor(Date.now() / 1000) - 301);
    const res = await webhook(stale.raw, stale.signature);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'ERROR', message: 'Invalid webhook signature.' });
    expect(await status(u.client, started.order_id)).toMatchObject({ status: 'processing' });
    expect(await balanceMinor(t.app, u.id)).toBe(0);
    // The event id was not burned by the failures: the genuine event still applies.
    expect((await webhook(raw, signature)).json().payload.result).toBe('applied');
    expect(await balanceMinor(t.app, u.id)).toBe(2000);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/payments/webhook/stripe', headers: { 'content-type': 'application/json' }, payload: raw })).statusCode,
    ).toBe(404);
  });

  it('a deposit pending 30 minutes expires as failed; a late success is still credited once', async () => {
    const u = await user();
    const started = await checkout(u.client, 10);
    const fresh = await checkout(u.client, 10);
    await t.app.db.update(deposits).set({ createdAt: sql`now() - interval '31 minutes'` }).where(eq(deposits.id, started.order_id));
    const expired = await expireStaleDeposits(t.app.db);
    expect(expired).toContain(started.order_id);
    expect(expired).not.toContain(fresh.order_id);
    expect(await status(u.client, started.order_id)).toEqual({
      status: 'failed',
      error_message: 'The payment was not completed within 30 minutes.',
      redirect_url: null,
    });
    // The hosted page no longer takes a card.
    expect((await postForm(new URL(started.redirect_url!).pathname, card('4242424242424242'))).statusCode).toBe(410);
    const late = signSandboxEvent(t.app.config, {
      id: 'evt_late',
      type: 'payment.succeeded',
      data: { deposit_id: started.order_id, amount_minor: 1000, currency: 'EUR' },
    });
    expect((await webhook(late.raw, late.signature)).statusCode).toBe(200);
    expect((await status(u.client, started.order_id)).status).toBe('success');
    expect(await balanceMinor(t.app, u.id)).toBe(1000);
  });

  it('the ledger is exact: balanced, cached balances match, users hold exactly what was deposited', async () => {
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
    expect(await totalUserBalances(t.app.db)).toBe(await creditedDepositsTotal(t.app.db));
  });
});

describe('logs', () => {
  const lines: string[] = [];
  let logged: TestApp;
  // Built once before the test: a second PGlite app inside a 30 s test times out on a loaded machine.
  beforeAll(async () => {
    logged = await createTestApp({ logStream: { write: (line) => lines.push(line) } });
  });
  afterAll(async () => {
    await logged?.close();
  });

  it('neither the card number nor the page token reaches a log line', async () => {
    await setSetting(logged.app.db, 'is_reg_enabled', true);
    const { client } = await registerUser(logged.app);
    const res = await client.post('/api/deposit/checkout', { amount: 10, currency: 'EUR', payment_method: 'sandbox-card' });
    const path = new URL(res.json().payload.redirect_url).pathname;
    const token = path.split('/').pop()!;
    await logged.app.inject({ method: 'GET', url: path });
    const paid = await logged.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(card('4242424242424242')).toString(),
    });
    expect(paid.statusCode).toBe(303);
    const all = lines.join('\n');
    expect(all).toContain('/api/payments/sandbox/pay/[redacted]');
    expect(all).not.toContain('4242424242424242');
    expect(all).not.toContain(token);
  });
});
