import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson, registerSeller, registerStaff } from '../../../test/accounts';
import { availableMinor, sellPrompt } from '../../../test/commerce';
import { payoutContact } from '../../../test/payouts';
import { useTestApp } from '../../../test/test-app';
import { payouts } from '../../db/schema';
import { checkLedger, releaseDueEarnings } from '../ledger';

/**
 * Withdrawals under concurrency: on PostgreSQL the 30 requests race at once (run with DATABASE_URL);
 * the embedded PGlite runs one statement at a time, so it proves the same rules without the race.
 * A creator whose available earnings cover 3 withdrawals sends 30 at once, three rounds over: each
 * round exactly one is accepted (at most one in flight per creator), the rest are 409; after 3 paid
 * the next round is refused as above available. Available earnings never go below zero.
 */
const PARALLEL = 30;

const t = useTestApp({ registration: true });

/** A bank transfer: the sandbox leaves it to staff, so no job pays it while a round races. */
const sepa = () => ({
  ...payoutContact,
  method: 'sepa',
  amount: 10,
  account_number: 'DE89370400440532013000',
  recipient_full_name: 'Ines Duarte',
});

describe('withdrawals in parallel', () => {
  it('30 parallel withdrawals: one accepted at a time, exactly 3 paid in all, available never below zero', async () => {
    const creator = await registerSeller(t.app);
    const admin = await registerStaff(t.app);
    const buyer = await registerPerson(t.app);
    // A real purchase, its clearing period over at once (issue 30: sales are of sold lines).
    await sellPrompt(t.app, buyer, creator.id, 3750);
    await releaseDueEarnings(t.app.db, { clearingDays: 0 });
    expect(await availableMinor(t.app, creator.id)).toBe(3000);

    for (let round = 1; round <= 4; round++) {
      const answers = await Promise.all(Array.from({ length: PARALLEL }, () => creator.client.post('/api/earnings/withdraw', sepa())));
      const codes = answers.map((r) => r.statusCode);
      expect(codes.every((c) => c !== 500)).toBe(true);
      const available = await availableMinor(t.app, creator.id);
      expect(available).toBeGreaterThanOrEqual(0);
      if (round <= 3) {
        expect(codes.filter((c) => c === 200)).toHaveLength(1);
        expect(codes.filter((c) => c === 409)).toHaveLength(PARALLEL - 1);
        expect(available).toBe(3000 - round * 1000);
      } else {
        // Nothing left: every request is refused with a message on the amount.
        expect(codes).toEqual(Array(PARALLEL).fill(422));
        expect(answers[0]!.json().errors.amount[0]).toContain('€0.00');
      }
      // Staff mark the one in flight paid; the next round may start.
      const accepted = answers.find((r) => r.statusCode === 200);
      if (accepted) {
        const id = accepted.json().payload.withdrawal.id;
        const paid = await admin.client.post(`/api/admin/payouts/${id}/complete`, { outcome: 'paid', reference: `BANK-${id}` });
        expect(paid.statusCode).toBe(200);
      }
    }
    const rows = await t.app.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.userId, creator.id), eq(payouts.kind, 'withdrawal')));
    expect(rows.map((r) => r.status)).toEqual(['paid', 'paid', 'paid']);
    expect((await creator.client.get('/api/earnings')).json().payload.withdrawn.amount_minor).toBe(3000);
    expect(await checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
