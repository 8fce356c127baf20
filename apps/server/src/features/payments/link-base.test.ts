import { describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { type TestApp, useTestApp } from '../../../test/test-app';

/**
 * Issue 31: while PUBLIC_URL is unset, the links the app hands back to the browser follow the address
 * the user opened. A local start opened as 127.0.0.1 must not send the buyer to localhost after paying
 * (another host: the session cookie is not sent there). A configured PUBLIC_URL still wins.
 */
const year = String(new Date().getUTCFullYear() + 2);
const card = { card_number: '4242 4242 4242 4242', exp_month: '12', exp_year: year, cvc: '123' };

async function payByCard(t: { app: TestApp['app'] }, host: string) {
  const { client } = await registerUser(t.app);
  const started = await client.post('/api/deposit/checkout', { amount: 25, currency: 'EUR', payment_method: 'sandbox-card' });
  expect(started.statusCode).toBe(200);
  const { order_id, redirect_url } = started.json().payload as { order_id: number; redirect_url: string };
  const path = new URL(redirect_url, `http://${host}`).pathname;
  const paid = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { host, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(card).toString(),
  });
  expect(paid.statusCode).toBe(303);
  return { order_id, redirect_url, location: paid.headers.location as string };
}

describe('links while PUBLIC_URL is unset', () => {
  const t = useTestApp({ seed: true, env: { PUBLIC_URL: '' } });

  it('the card page and the way back after paying stay on the address the browser opened', async () => {
    const { order_id, redirect_url, location } = await payByCard(t, '127.0.0.1:3000');
    // Relative links: the browser resolves them against 127.0.0.1:3000, never localhost.
    expect(redirect_url).toMatch(/^\/api\/payments\/sandbox\/pay\/[^/]+$/);
    expect(location).toBe(`/processing-payment?order_id=${order_id}`);
    expect(new URL(location, 'http://127.0.0.1:3000/api/payments/sandbox/pay/x').origin).toBe('http://127.0.0.1:3000');
    const script = await t.app.inject({ method: 'GET', url: '/api/payments/sandbox/widget.js' });
    expect(script.body).toContain('"/api/payments/sandbox/pay"');
    expect(script.body).not.toContain('localhost');
  });

  it('the sandbox pay page has a Cancel link back to the app', async () => {
    const { client } = await registerUser(t.app);
    const started = await client.post('/api/deposit/checkout', { amount: 25, currency: 'EUR', payment_method: 'sandbox-card' });
    const page = await t.app.inject({ method: 'GET', url: started.json().payload.redirect_url });
    expect(page.body).toContain('<a class="cancel" href="/fail-payment?error=Payment%20cancelled">Cancel and return to Atelier</a>');
  });
});

describe('links with PUBLIC_URL set', () => {
  const t = useTestApp({ seed: true, env: { PUBLIC_URL: 'http://shop.localhost:4000' } });

  it('the configured address wins, whatever host the request named', async () => {
    const { order_id, redirect_url, location } = await payByCard(t, '127.0.0.1:4000');
    expect(redirect_url.startsWith('http://shop.localhost:4000/api/payments/sandbox/pay/')).toBe(true);
    expect(location).toBe(`http://shop.localhost:4000/processing-payment?order_id=${order_id}`);
  });
});
