import { eq } from 'drizzle-orm';
import { sellerDetails, users } from '../../db/schema';
import type { Seeder } from '../../db/seeding';

/**
 * The demo seller's trader details (issue 33): her listings and withdrawals pass the gate, so the demo
 * flows work as before. Runs on an existing demo database too (its own marker).
 */
export const demoSellersSeeder: Seeder = {
  name: 'demo-sellers',
  demo: true,
  async run(tx) {
    const [sofia] = await tx.select({ id: users.id }).from(users).where(eq(users.email, 'seller@example.com')).limit(1);
    if (!sofia) return;
    await tx
      .insert(sellerDetails)
      .values({
        userId: sofia.id,
        kind: 'individual',
        legalName: 'Sofia Marin',
        dateOfBirth: '1990-04-12',
        addressLine1: 'Rua das Flores 12',
        city: 'Lisboa',
        postCode: '1200-195',
        country: 'PT',
        taxId: '123456789',
      })
      .onConflictDoNothing();
  },
};
