import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerStaff } from '../../../test/accounts';
import { cardPaidWebhook, chatPair, multipart, sendChat, sendChatForm, testPng } from '../../../test/chat';
import { accountMinor, balanceMinor, fund, pendingMinor } from '../../../test/commerce';
import { paidByCard } from '../../../test/payments';
import { type TestClient, useTestApp } from '../../../test/test-app';
import { chatMessages } from '../../db/schema';
import { checkLedger } from '../ledger';

/**
 * Issue 33 for a paid chat image: an unlock is a sale like an order's line. The buyer's country's VAT
 * is carved out of what they pay, owed to vat:payable:<country>, kept on the message, given back by a
 * refund, and part of the One-Stop Shop report, the reconciliation and DAC7.
 */

const t = useTestApp({ registration: true });

const exact = { unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 };

const vatAccount = (country: string) => accountMinor(t.app, `vat:payable:${country}`);

const quarterOf = (d = new Date()) => `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;

/** A chat whose buyer (of `country`, by card and profile; optionally a business) waits to pay a locked image of `euros`. */
async function imageWaiting(euros: number, who: { country: string; vatNumber?: string }) {
  const pair = await chatPair(t.app);
  const { buyer, creator, chatId } = pair;
  await paidByCard(t.app, buyer.id, who.country);
  const stated = await buyer.client.put('/api/user/tax-country', { country: who.country, vat_number: who.vatNumber ?? null });
  expect(stated.statusCode).toBe(200);
  expect((await sendChat(creator.client, chatId, { type: 'price_proposal', amount: euros })).statusCode).toBe(200);
  expect((await sendChat(buyer.client, chatId, { action: 'accept_price' })).statusCode).toBe(200);
  const locked = await sendChatForm(creator.client, chatId, multipart({ is_locked: '1' }, { name: 'fox.png', type: 'image/png', data: await testPng() }));
  expect(locked.statusCode).toBe(200);
  return { ...pair, imageId: locked.json().payload.id as number };
}

const unlock = (client: TestClient, chatId: number, imageId: number) => client.post(`/api/chat/${chatId}/unlock`, { message_id: imageId });

async function ossRow(staff: TestClient, country: string) {
  const report = (await staff.get(`/api/admin/tax/oss?quarter=${quarterOf()}`)).json().payload;
  expect(report.total_vat_minor).toBe(report.ledger_vat_minor);
  return (report.rows as { country: string; vat_minor: number; net_minor: number; sales: number; refunds: number }[]).find((r) => r.country === country);
}

describe('VAT on a paid chat image (issue 33)', () => {
  it('a German consumer pays 19.00 € for an image: 3.03 € VAT owed to DE, the commission and the share from the net; a refund gives the VAT back', async () => {
    const staff = await registerStaff(t.app);
    // A country no other test here uses, so the OSS row and the account are this test's alone.
    const { buyer, creator, chatId, imageId } = await imageWaiting(19, { country: 'DE' });
    await fund(t.app, buyer.id, 1900);
    const vatBefore = await vatAccount('DE');
    const ossBefore = (await ossRow(staff.client, 'DE')) ?? { vat_minor: 0, net_minor: 0, sales: 0, refunds: 0 };

    const paid = (await unlock(buyer.client, chatId, imageId)).json().payload;
    expect(paid.status).toBe('Success');
    // The buyer's chat shows what they paid and its VAT.
    expect(paid.message).toMatchObject({ price: { amount: 19 }, tax: { country: 'DE', rate: 19, net_minor: 1597, vat_minor: 303, reverse_charge: false } });
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect((await vatAccount('DE')) - vatBefore).toBe(303);
    // 20 % of the net 15.97 € is 3.19 € commission; the creator earns 12.78 €.
    expect(await pendingMinor(t.app, creator.id)).toBe(1278);
    const [row] = await t.app.db.select().from(chatMessages).where(eq(chatMessages.id, imageId));
    expect(row).toMatchObject({
      paidMinor: 1900,
      vatMinor: 303,
      taxCountry: 'DE',
      taxRateBp: 1900,
      reverseCharge: false,
      sellerMinor: 1278,
      commissionMinor: 319,
    });
    expect(row!.taxEvidence).toMatchObject({ card: 'DE', profile: 'DE', basis: 'agree' });
    expect(await ossRow(staff.client, 'DE')).toMatchObject({
      vat_minor: ossBefore.vat_minor + 303,
      net_minor: ossBefore.net_minor + 1597,
      sales: ossBefore.sales + 1,
    });
    expect(((await staff.client.get('/api/admin/ledger/reconciliation')).json().payload as { ok: boolean }).ok).toBe(true);
    const dac7 = (await staff.client.get(`/api/admin/dac7?year=${new Date().getUTCFullYear()}`)).json().payload;
    expect(dac7.sellers.find((s: { user_id: number }) => s.user_id === creator.id)).toMatchObject({ total_consideration_minor: 1597, total_sales: 1 });

    // The buyer asks for a refund, staff grant it: the whole 19.00 € back, the VAT from DE's account.
    const asked = await buyer.client.post(`/api/orders/${chatId}/refund-request`, {
      reason: 'not_as_described',
      message: 'Not the fox we agreed on.',
      unlock_message_id: imageId,
    });
    expect(asked.statusCode).toBe(200);
    const resolved = await staff.client.post(`/api/admin/refund-requests/${asked.json().payload.id}/resolve`, { decision: 'refund', note: '' });
    expect(resolved.statusCode).toBe(200);
    expect(await balanceMinor(t.app, buyer.id)).toBe(1900);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await vatAccount('DE')).toBe(vatBefore);
    expect(await ossRow(staff.client, 'DE')).toMatchObject({ vat_minor: ossBefore.vat_minor, refunds: ossBefore.refunds + 1 });
    expect(((await staff.client.get('/api/admin/ledger/reconciliation')).json().payload as { ok: boolean }).ok).toBe(true);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('a French business with a valid VAT number pays the net under reverse charge: no VAT, and its refund gives back what it paid', async () => {
    const { buyer, creator, chatId, imageId } = await imageWaiting(19, { country: 'FR', vatNumber: 'FR40303265045' });
    await fund(t.app, buyer.id, 1900);
    const vatBefore = await vatAccount('FR');
    const paid = (await unlock(buyer.client, chatId, imageId)).json().payload;
    // 19.00 € less the French VAT inside it (20 %: 3.17 €).
    expect(paid.message).toMatchObject({ price: { amount: 15.83 }, tax: { country: 'FR', net_minor: 1583, vat_minor: 0, reverse_charge: true } });
    expect(await balanceMinor(t.app, buyer.id)).toBe(317);
    expect(await vatAccount('FR')).toBe(vatBefore);
    const [row] = await t.app.db.select().from(chatMessages).where(eq(chatMessages.id, imageId));
    expect(row).toMatchObject({ paidMinor: 1583, vatMinor: 0, taxCountry: 'FR', reverseCharge: true, buyerVatNumber: 'FR40303265045' });
    expect(await pendingMinor(t.app, creator.id)).toBe(1583 - Math.round(1583 * 0.2));
    const staff = await registerStaff(t.app);
    const asked = await buyer.client.post(`/api/orders/${chatId}/refund-request`, {
      reason: 'not_as_described',
      message: 'Not the fox we agreed on.',
      unlock_message_id: imageId,
    });
    // The request is for what the buyer paid.
    const mine = (await buyer.client.get('/api/refund-requests')).json().payload as { id: number; amount: { amount_minor: number } }[];
    expect(mine.find((r) => r.id === asked.json().payload.id)?.amount.amount_minor).toBe(1583);
    await staff.client.post(`/api/admin/refund-requests/${asked.json().payload.id}/resolve`, { decision: 'refund', note: '' });
    expect(await balanceMinor(t.app, buyer.id)).toBe(1900);
    expect(await pendingMinor(t.app, creator.id)).toBe(0);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });

  it('a short balance pays by card exactly the total with its VAT; the webhook carries out the sale with the tax decided when the buyer chose to pay', async () => {
    const { buyer, chatId, imageId } = await imageWaiting(19, { country: 'AT' });
    const vatBefore = await vatAccount('AT');
    const pending = (await unlock(buyer.client, chatId, imageId)).json().payload;
    expect(pending).toMatchObject({ status: 'Pending', payment_type: 'widget' });
    expect((await cardPaidWebhook(t.app, pending.order_id)).statusCode).toBe(200);
    const [row] = await t.app.db.select().from(chatMessages).where(eq(chatMessages.id, imageId));
    // Austria: 20 % inside 19.00 € is 3.17 €.
    expect(row).toMatchObject({ paidMinor: 1900, vatMinor: 317, taxCountry: 'AT' });
    expect(row!.unlockedAt).not.toBeNull();
    expect((await vatAccount('AT')) - vatBefore).toBe(317);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);
    expect(await checkLedger(t.app.db)).toEqual(exact);
  });
});
