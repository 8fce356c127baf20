import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson } from '../../../../test/accounts';
import { paidStripeDeposit, type StripeEvent, sendStripeEvent, stripeTestEnv } from '../../../../test/payments';
import { useTestApp } from '../../../../test/test-app';
import { deposits } from '../../../db/schema';

/**
 * Issue 33 with Stripe: the card's issuing country is VAT evidence. Stripe's PaymentIntent and Checkout
 * events name the charge by id only; its `charge.succeeded` event carries the card, and the deposit it
 * paid records brand, last four and country from it, so the buyer's next purchase knows the country.
 */
const secret = 'whsec_test_card_country';
const t = useTestApp({ env: stripeTestEnv(secret), registration: true });

const chargeSucceeded = (id: string, card: Record<string, unknown>, link: { depositId?: number; pi?: string }): StripeEvent => ({
  id,
  type: 'charge.succeeded',
  data: {
    object: {
      object: 'charge',
      payment_intent: link.pi ?? null,
      metadata: link.depositId ? { deposit_id: String(link.depositId) } : {},
      payment_method_details: { card },
    },
  },
});

describe('the card country from Stripe', () => {
  it('a charge names the card that paid a deposit: the buyer’s VAT country follows it; a replay or an unknown payment changes nothing', async () => {
    const buyer = await registerPerson(t.app);
    const { depositId, pi } = await paidStripeDeposit(t.app, secret, buyer.id, 1900);
    // Before Stripe says which card paid, nothing tells the buyer's country.
    expect((await buyer.client.get('/api/user/tax')).json().payload).toMatchObject({ country: null, rate: 0 });

    expect(await sendStripeEvent(t.app, secret, chargeSucceeded('evt_charge_1', { brand: 'visa', last4: '0016', country: 'DE' }, { depositId, pi }))).toBe(
      'applied',
    );
    const [row] = await t.app.db.select().from(deposits).where(eq(deposits.id, depositId));
    expect(row).toMatchObject({ cardBrand: 'visa', cardLast4: '0016', cardCountry: 'DE', status: 'success' });
    expect((await buyer.client.get('/api/user/tax')).json().payload).toMatchObject({ country: 'DE', rate: 19, reverse_charge: false });

    // The same event again is a duplicate; a charge of a payment we do not know is ignored.
    expect(await sendStripeEvent(t.app, secret, chargeSucceeded('evt_charge_1', { brand: 'visa', last4: '0016', country: 'DE' }, { depositId, pi }))).toBe(
      'duplicate',
    );
    expect(await sendStripeEvent(t.app, secret, chargeSucceeded('evt_charge_2', { brand: 'visa', last4: '9999', country: 'FR' }, { pi: 'pi_unknown' }))).toBe(
      'ignored',
    );
    // Found by its PaymentIntent when the charge carries no deposit id.
    expect(await sendStripeEvent(t.app, secret, chargeSucceeded('evt_charge_3', { brand: 'mastercard', last4: '4444', country: 'AT' }, { pi }))).toBe(
      'applied',
    );
    expect((await buyer.client.get('/api/user/tax')).json().payload).toMatchObject({ country: 'AT' });
  });
});
