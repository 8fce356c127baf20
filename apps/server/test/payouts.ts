import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { offers } from '../src/db/schema';

/** The contact details every payout form sends (SPEC §7 payout requests), for tests of payouts and withdrawals. */
export const payoutContact = {
  first_name: 'Ines',
  last_name: 'Duarte',
  email: 'ines@example.com',
  phone: '+351912345678',
  address: 'Rua Augusta 1',
  city: 'Lisboa',
  post_code: '1100-048',
  country: 620,
  currency: 'EUR',
};

/** The card payout form for the offer `id` (SPEC §7), paying to `number`. */
export const cardPayoutBody = (id: number, number = '4242424242424242') => ({
  ...payoutContact,
  id,
  paymentType: 'card',
  card_number: number,
  expire_month: 12,
  expire_year: new Date().getUTCFullYear() + 2,
  terms: true,
  card_holder_name: 'Ines Duarte',
});

/** An offer the creator has accepted at `priceMinor`, ready to be paid out (the review itself is offers.test.ts's). */
export async function approvedOffer(app: FastifyInstance, userId: number, priceMinor: number): Promise<number> {
  const [row] = await app.db
    .insert(offers)
    .values({
      userId,
      title: 'Harbour at dawn',
      userPriceMinor: priceMinor,
      servicePriceMinor: priceMinor,
      status: 'approved',
      docType: 'image',
      fileType: 'png',
      fileName: 'harbour.png',
      originalPath: `offers/${userId}/harbour.png`,
    })
    .returning({ id: offers.id });
  return row!.id;
}

export const offerStatus = async (app: FastifyInstance, id: number) =>
  (await app.db.select({ status: offers.status }).from(offers).where(eq(offers.id, id)))[0]!.status;
