import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo, registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { accountMinor, balanceMinor, fund, pendingMinor, revenueMinor, sellPrompt } from '../../../test/commerce';
import { paidByCard } from '../../../test/payments';
import { pdfText } from '../../../test/pdf';
import { TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { orders } from '../../db/schema';
import { decideCountry, vatInside } from './vat';
import { checkVatNumber } from './vat-number';

const t = useTestApp({ registration: true });

const vatAccount = (country: string) => accountMinor(t.app, `vat:payable:${country}`);

async function buyer(opts: { card?: string; country?: string; vat?: string } = {}) {
  const person = await registerPerson(t.app);
  if (opts.card) await paidByCard(t.app, person.id, opts.card);
  if (opts.country) {
    const res = await person.client.put('/api/user/tax-country', { country: opts.country, vat_number: opts.vat ?? null });
    expect(res.statusCode).toBe(200);
  }
  return person;
}

const historyItem = async (client: TestClient, orderId: number) =>
  (
    (await client.get('/api/purchase/history')).json().payload as { id: number; tax: unknown; invoice_url: string | null; credit_note_url: string | null }[]
  ).find((o) => o.id === orderId)!;

describe('VAT rules', () => {
  it('carves the VAT out of a VAT-inclusive price, the net rounded half up', () => {
    expect(vatInside(1900, 1900)).toBe(303);
    expect(vatInside(1900, 2000)).toBe(317);
    expect(vatInside(1, 2300)).toBe(0);
    expect(vatInside(1000, 0)).toBe(0);
  });

  it('two pieces of evidence that agree decide; when they disagree the profile is the buyer’s choice, and without one the buyer is asked', () => {
    expect(decideCountry({ card: 'DE', address: 'DE', profile: 'FR' })).toEqual({ country: 'DE', basis: 'agree' });
    expect(decideCountry({ card: 'DE', address: null, profile: null })).toEqual({ country: 'DE', basis: 'single' });
    expect(decideCountry({ card: 'DE', address: 'AT', profile: 'FR' })).toEqual({ country: 'FR', basis: 'choice' });
    expect(decideCountry({ card: 'DE', address: 'AT', profile: null })).toEqual({ needsChoice: ['DE', 'AT'] });
    expect(decideCountry({ card: null, address: null, profile: null })).toEqual({ country: null, basis: 'unknown' });
  });

  it('checks VAT numbers offline: check digits for DE, FR, PT, IT, ES, NL, BE, AT; format for the others', () => {
    for (const ok of [
      'DE136695976',
      'FR40303265045',
      'PT501964843',
      'IT00743110157',
      'ESA28015865',
      'ES12345678Z',
      'NL004495445B01',
      'BE0417497106',
      'ATU13585627',
      'EL094259216',
    ])
      expect(checkVatNumber(ok).ok, ok).toBe(true);
    for (const bad of [
      'DE136695977',
      'FR41303265045',
      'PT501964844',
      'IT00743110158',
      'ESA28015866',
      'ES12345678A',
      'NL004495446B01',
      'BE0417497107',
      'ATU13585626',
      'US123456789',
      'DE1234',
    ])
      expect(checkVatNumber(bad).ok, bad).toBe(false);
    expect(checkVatNumber('fr 40 303 265 045')).toEqual({ ok: true, number: 'FR40303265045', country: 'FR' });
  });
});

describe('VAT at sale', () => {
  it('a German consumer pays 19.00 €: VAT 3.03 to vat:payable:DE, net 15.97, commission and share from the net; the invoice shows it', async () => {
    const creator = await registerSeller(t.app);
    const de = await buyer({ card: 'DE', country: 'DE' });
    const vatBefore = await vatAccount('DE');
    const revenueBefore = await revenueMinor(t.app);
    // What the buy dialog shows before the purchase.
    expect((await de.client.get('/api/user/tax')).json().payload).toEqual({ country: 'DE', rate: 19, list_rate: 19, reverse_charge: false, choices: null });
    const orderId = await sellPrompt(t.app, de, creator.id, 1900);
    expect(await balanceMinor(t.app, de.id)).toBe(0);
    expect(await vatAccount('DE')).toBe(vatBefore + 303);
    // 20 % of the net 15.97 is 3.19; the creator gets 12.78.
    expect(await revenueMinor(t.app)).toBe(revenueBefore + 319);
    expect(await pendingMinor(t.app, creator.id)).toBe(1278);
    const item = await historyItem(de.client, orderId);
    expect(item.tax).toEqual({ country: 'DE', rate: 19, net_minor: 1597, vat_minor: 303, reverse_charge: false });
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order!.taxEvidence).toMatchObject({ card: 'DE', profile: 'DE', basis: 'agree' });
    // Numbered right after the commit, by the order's receipt job (below).
    expect(order!.invoiceNumber).toBeNull();
    expect(item.invoice_url).toBe(`/api/orders/${orderId}/invoice.pdf`);
    // The receipt e-mail names the VAT and links both documents.
    await expect
      .poll(async () => {
        await t.app.jobs.runDue();
        return (await lastMailTo(t.app, de.email))?.subject;
      })
      .toBe(`Your Atelier order #${orderId}`);
    const [numbered] = await t.app.db.select({ n: orders.invoiceNumber }).from(orders).where(eq(orders.id, orderId));
    expect(numbered!.n).toMatch(/^20\d\d-\d{6}$/);
    const receipt = (await lastMailTo(t.app, de.email))!.text;
    expect(receipt).toContain(`Your invoice ${numbered!.n}`);
    expect(receipt).toContain('Of which VAT 19 % (DE): 3.03 €; net 15.97 €.');
    expect(receipt).toContain(`/api/orders/${orderId}/invoice.pdf`);
    expect(receipt).toContain(`/api/orders/${orderId}/credit-note.pdf`);

    const pdf = await de.client.get(`/api/orders/${orderId}/invoice.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain(`Invoice ${numbered!.n}`);
    expect(text).toContain('Atelier Marketplace Lda.');
    expect(text).toContain('VAT number: PT500000000');
    expect(text).toContain('Country: DE');
    expect(text).toMatch(/Sold prompt \d+ \(Commercial licence\) by .+ \| 15\.97 EUR \| 19 % \| 3\.03 EUR \| 19\.00 EUR/);
    expect(text).toContain('Total: 19.00 EUR');
    expect(text).not.toContain('Reverse charge');

    // Only the buyer and staff: anyone else is told it does not exist; a guest must sign in.
    const stranger = await registerPerson(t.app);
    expect((await stranger.client.get(`/api/orders/${orderId}/invoice.pdf`)).statusCode).toBe(404);
    expect((await new TestClient(t.app).get(`/api/orders/${orderId}/invoice.pdf`)).statusCode).toBe(401);
    expect((await de.client.get(`/api/orders/${orderId}/credit-note.pdf`)).statusCode).toBe(404);
    expect((await de.client.get('/api/orders/abc/invoice.pdf')).statusCode).toBe(422);
    const staff = await registerStaff(t.app);
    expect((await staff.client.get(`/api/orders/${orderId}/invoice.pdf`)).statusCode).toBe(200);

    // A refund gives back exactly the stored VAT, and a credit note refers to the invoice.
    const asked = await de.client.post(`/api/orders/${orderId}/refund-request`, { reason: 'broken_file', message: 'The file does not open.' });
    expect(asked.statusCode).toBe(200);
    expect((await creator.client.post(`/api/refund-requests/${asked.json().payload.id}/accept`)).statusCode).toBe(200);
    expect(await balanceMinor(t.app, de.id)).toBe(1900);
    expect(await vatAccount('DE')).toBe(vatBefore);
    expect(await revenueMinor(t.app)).toBe(revenueBefore);
    const refunded = await historyItem(de.client, orderId);
    expect(refunded.credit_note_url).toBe(`/api/orders/${orderId}/credit-note.pdf`);
    const note = await de.client.get(`/api/orders/${orderId}/credit-note.pdf`);
    expect(note.statusCode).toBe(200);
    const noteText = pdfText(note.rawPayload);
    expect(noteText).toMatch(/Credit note CN-20\d\d-\d{6}/);
    expect(noteText).toContain(`Refers to invoice ${numbered!.n}`);
    expect(noteText).toContain('-3.03 EUR');
    expect((await stranger.client.get(`/api/orders/${orderId}/credit-note.pdf`)).statusCode).toBe(404);

    const reconciliation = (await staff.client.get('/api/admin/ledger/reconciliation')).json().payload;
    expect(reconciliation).toMatchObject({ ok: true, mismatched_vat: [] });
  });

  it('a French business with a valid VAT number buys from the Portuguese platform under reverse charge: 0 %, the price less its VAT', async () => {
    const creator = await registerSeller(t.app);
    const fr = await buyer({ country: 'FR', vat: 'FR 40 303 265 045' });
    const profile = (await fr.client.get('/api/user/profile')).json().payload;
    expect(profile).toMatchObject({ tax_country: 'FR', vat_number: 'FR40303265045' });
    const vatBefore = await vatAccount('FR');
    expect((await fr.client.get('/api/user/tax')).json().payload).toEqual({ country: 'FR', rate: 0, list_rate: 20, reverse_charge: true, choices: null });
    const orderId = await sellPrompt(t.app, fr, creator.id, 1900);
    const item = await historyItem(fr.client, orderId);
    // 19.00 € carries 3.17 € of French VAT (20 %): the business pays 15.83 € and accounts for the VAT itself.
    expect(item.tax).toEqual({ country: 'FR', rate: 0, net_minor: 1583, vat_minor: 0, reverse_charge: true });
    expect(await balanceMinor(t.app, fr.id)).toBe(1900 - 1583);
    expect(await vatAccount('FR')).toBe(vatBefore);
    expect(await pendingMinor(t.app, creator.id)).toBe(1583 - 317);
    const text = pdfText((await fr.client.get(`/api/orders/${orderId}/invoice.pdf`)).rawPayload);
    expect(text).toContain('VAT number: FR40303265045');
    expect(text).toContain('Reverse charge');
    expect(text).toContain('Total: 15.83 EUR');
  });

  it('a buyer in the United States pays 0 %', async () => {
    const creator = await registerSeller(t.app);
    const us = await buyer({ card: 'US' });
    const orderId = await sellPrompt(t.app, us, creator.id, 1900);
    expect((await historyItem(us.client, orderId)).tax).toEqual({ country: 'US', rate: 0, net_minor: 1900, vat_minor: 0, reverse_charge: false });
    expect(await pendingMinor(t.app, creator.id)).toBe(1520);
  });

  it('the stated country and VAT number are checked: 422 per field, a guest 401', async () => {
    const person = await registerPerson(t.app);
    const bad = await person.client.put('/api/user/tax-country', { country: 'XX' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.country[0]).toBe('Please give the country as its two-letter code, such as PT or DE.');
    const digits = await person.client.put('/api/user/tax-country', { country: 'DE', vat_number: 'DE136695977' });
    expect(digits.statusCode).toBe(422);
    expect(digits.json().errors.vat_number[0]).toMatch(/check digits/);
    const other = await person.client.put('/api/user/tax-country', { country: 'AT', vat_number: 'DE136695976' });
    expect(other.json().errors.vat_number[0]).toBe('This VAT number is from DE, not AT: please check your country.');
    expect((await new TestClient(t.app).put('/api/user/tax-country', { country: 'DE' })).statusCode).toBe(401);
  });
});

describe('rates and the One-Stop Shop report', () => {
  it('staff list and edit the rates (EU only, checked); others are refused', async () => {
    const staff = await registerStaff(t.app);
    const person = await registerPerson(t.app);
    expect((await person.client.get('/api/admin/tax/rates')).statusCode).toBe(403);
    const rates = (await staff.client.get('/api/admin/tax/rates')).json().payload as { id: number; country: string; rate: number; valid_from: string }[];
    expect(new Set(rates.map((r) => r.country)).size).toBe(27);
    expect(rates.find((r) => r.country === 'DE')).toMatchObject({ rate: 19 });
    expect((await staff.client.post('/api/admin/tax/rates', { country: 'US', rate: 7, valid_from: '2030-01-01' })).json().errors.country).toBeDefined();
    expect((await staff.client.post('/api/admin/tax/rates', { country: 'DE', rate: 'x', valid_from: '2030-13-01' })).statusCode).toBe(422);
    const added = await staff.client.post('/api/admin/tax/rates', { country: 'DE', rate: 21.5, valid_from: '2099-01-01' });
    expect(added.json().payload).toMatchObject({ country: 'DE', rate: 21.5, valid_from: '2099-01-01' });
    expect((await staff.client.post('/api/admin/tax/rates', { country: 'DE', rate: 22, valid_from: '2099-01-01' })).statusCode).toBe(422);
    const fixed = await staff.client.put(`/api/admin/tax/rates/${added.json().payload.id}`, { country: 'DE', rate: 22, valid_from: '2099-01-01' });
    expect(fixed.json().payload.rate).toBe(22);
    expect((await staff.client.put('/api/admin/tax/rates/999999999', { country: 'DE', rate: 22, valid_from: '2099-02-01' })).statusCode).toBe(404);
  });

  it('the OSS report equals the VAT accounts to the cent, in JSON and CSV', async () => {
    const staff = await registerStaff(t.app);
    const creator = await registerSeller(t.app);
    for (const [country, price] of [
      ['DE', 1900],
      ['DE', 999],
      ['AT', 1234],
    ] as const) {
      await sellPrompt(t.app, await buyer({ card: country, country }), creator.id, price);
    }
    const now = new Date();
    const quarter = `${now.getUTCFullYear()}-Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    const report = (await staff.client.get(`/api/admin/tax/oss?quarter=${quarter}`)).json().payload;
    const accounts = await t.app.db.execute(sql`select coalesce(sum(balance_minor), 0) as total from ledger_accounts where kind = 'vat_payable'`);
    const ledgerTotal = Number(rowsOf<{ total: string }>(accounts)[0]!.total);
    expect(report.total_vat_minor).toBe(ledgerTotal);
    expect(report.ledger_vat_minor).toBe(ledgerTotal);
    for (const row of report.rows as { country: string; vat_minor: number }[]) expect(row.vat_minor).toBe(await vatAccount(row.country));
    expect(report.rows.find((r: { country: string }) => r.country === 'AT')).toMatchObject({ rate: 20, vat_minor: 206, net_minor: 1028, sales: 1, refunds: 0 });
    const csv = await staff.client.get(`/api/admin/tax/oss.csv?quarter=${quarter}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('country,rate_percent,net_eur,vat_eur,sales,refunds');
    expect(csv.body).toContain('AT,20,10.28,2.06,1,0');
    expect((await staff.client.get('/api/admin/tax/oss?quarter=2026-Q5')).statusCode).toBe(422);
    // DAC7 reads the stored split: the consideration is each line's price without VAT, the fees its commission.
    const dac7 = (await staff.client.get(`/api/admin/dac7?year=${now.getUTCFullYear()}`)).json().payload;
    const seller = dac7.sellers.find((s: { user_id: number }) => s.user_id === creator.id);
    expect(seller.total_consideration_minor).toBe(1597 + 839 + 1028);
    expect(seller.fees_minor.reduce((a: number, b: number) => a + b, 0)).toBe(319 + 168 + 206);
    expect((await creator.client.get(`/api/admin/tax/oss?quarter=${quarter}`)).statusCode).toBe(403);
  });
});

describe('invoice numbers', () => {
  it('every order gets the next number of the year’s one series, without gaps', async () => {
    const creator = await registerSeller(t.app);
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const orderId = await sellPrompt(t.app, await buyer({ card: 'PT' }), creator.id, 500);
      await t.app.jobs.runDue();
      const [o] = await t.app.db.select({ n: orders.invoiceNumber }).from(orders).where(eq(orders.id, orderId));
      numbers.push(o!.n!);
    }
    const seq = numbers.map((n) => Number(n.slice(5)));
    expect(seq).toEqual([seq[0], seq[0]! + 1, seq[0]! + 2]);
    // A refused purchase (not enough balance) takes no number.
    const poor = await buyer({ card: 'PT' });
    await fund(t.app, poor.id, 1);
    await expect(sellPrompt(t.app, poor, creator.id, 500, { funded: true })).rejects.toThrow(/422/);
    const next = await sellPrompt(t.app, await buyer({ card: 'PT' }), creator.id, 500);
    await t.app.jobs.runDue();
    const [o] = await t.app.db.select({ n: orders.invoiceNumber }).from(orders).where(eq(orders.id, next));
    expect(Number(o!.n!.slice(5))).toBe(seq[2]! + 1);
  });
});

describe('the seller on invoices', () => {
  it('staff set the platform’s legal name, address and VAT number, and the next invoice shows them', async () => {
    const staff = await registerStaff(t.app);
    expect((await staff.client.get('/api/admin/tax/seller')).json().payload).toEqual({
      legal_name: 'Atelier Marketplace Lda.',
      address: 'Rua Criativa 1, 1100-001 Lisboa, Portugal',
      vat_number: 'PT500000000',
    });
    const empty = await staff.client.put('/api/admin/tax/seller', { legal_name: ' ', address: 'x', vat_number: 'PT1' });
    expect(empty.json().errors.legal_name).toEqual(['The legal name field is required.']);
    const seller = { legal_name: 'Atelier Mercados Lda.', address: 'Rua Nova 2, 1200-001 Lisboa, Portugal', vat_number: 'PT501964843' };
    expect((await staff.client.put('/api/admin/tax/seller', seller)).json().payload).toEqual(seller);
    expect((await (await registerPerson(t.app)).client.put('/api/admin/tax/seller', seller)).statusCode).toBe(403);
    const pt = await buyer({ card: 'PT' });
    const orderId = await sellPrompt(t.app, pt, (await registerSeller(t.app)).id, 1230);
    const text = pdfText((await pt.client.get(`/api/orders/${orderId}/invoice.pdf`)).rawPayload);
    expect(text).toContain('Atelier Mercados Lda.');
    expect(text).toContain('Rua Nova 2, 1200-001 Lisboa, Portugal');
    expect(text).toContain('VAT number: PT501964843');
    // 12.30 € at 23 %: VAT 2.30 €.
    expect(text).toContain('VAT 23 %: 2.30 EUR');
  });
});
