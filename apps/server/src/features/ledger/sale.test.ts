import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { balanceMinor, fund, pendingMinor, revenueMinor } from '../../../test/commerce';
import { useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import * as ledger from '.';

/**
 * Hole 7: the ledger owns the one writer of a sale (`postSale`); checkout, the chat unlock and packs
 * say only what is sold for how much, and no feature writes journal rows or sees the ledger's SQL.
 */
const t = useTestApp({ registration: true });

const MARKER: ledger.SaleStatementShape = {
  name: 'test_marker',
  ctes: (_transactionId, v) => sql`marker as (insert into site_settings (key, value) values (${v('markerKey')}, '1') returning key)`,
  written: () => sql`(select count(*) from marker)`,
  columns: () => sql`, (select key from marker) as marker`,
};

const source = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('hole 7: one writer for a sale', () => {
  it('hole 7: features/ledger exports no SQL internals, and checkout writes no journal rows itself', () => {
    for (const internal of [
      'chargeCtes',
      'chargeEntriesOrRefuse',
      'chargeLines',
      'refusalOf',
      'userAccountIdSql',
      'systemAccountIdSql',
      'openTransfer',
      'postTransfer',
    ]) {
      expect(Object.keys(ledger), internal).not.toContain(internal);
    }
    expect(typeof ledger.postSale).toBe('function');
    const checkout = source('../orders/checkout.ts');
    expect(checkout).not.toMatch(/ledger_transactions|ledger_entries|prepareQuery|chargeCtes/);
    expect(checkout).toContain('postSale(');
    expect(source('../chat/chat-deal.routes.ts')).toContain('postSale(');
  });

  it('hole 7: postSale pays each seller their share less commission, revenue the rest, and refuses a short buyer with nothing written', async () => {
    const buyer = await registerPerson(t.app);
    const a = await registerPerson(t.app);
    const b = await registerPerson(t.app);
    await fund(t.app, buyer.id, 1000);
    const before = await revenueMinor(t.app);
    const sale = {
      buyerId: buyer.id,
      shares: [
        { sellerId: a.id, amountMinor: 333, platformOwned: false },
        { sellerId: b.id, amountMinor: 667, platformOwned: false },
      ],
      commissionPercent: 20,
      reason: 'test sale',
    };
    const posted = await t.app.db.transaction((tx) => ledger.postSale(tx, sale));
    expect(posted.transactionId).toBeGreaterThan(0);
    // Each seller's share less commission waits in their pending earnings; their balance is untouched.
    expect(await pendingMinor(t.app, a.id)).toBe(333 - 67);
    expect(await pendingMinor(t.app, b.id)).toBe(667 - 133);
    expect(await balanceMinor(t.app, a.id)).toBe(0);
    expect((await revenueMinor(t.app)) - before).toBe(67 + 133);
    expect(await balanceMinor(t.app, buyer.id)).toBe(0);

    // Records written in the sale's statement are undone with a refused charge.
    const records = { shape: MARKER, values: { markerKey: `hole7-${buyer.id}` } };
    await expect(t.app.db.transaction((tx) => ledger.postSale(tx, sale, records))).rejects.toBeInstanceOf(ledger.InsufficientFunds);
    const marker = await t.app.db.execute(sql`select count(*)::int as n from site_settings where key = ${`hole7-${buyer.id}`}`);
    expect(rowsOf<{ n: number }>(marker)[0]!.n).toBe(0);
    // The journal balances. A bare sale (no records) stores no sold lines (issue 30): the reconciliation
    // names the pending accounts it credited, which no line explains; every real sale writes its lines.
    const pendingIds = await Promise.all([a.id, b.id].map((id) => ledger.existingAccountId(t.app.db, ledger.earningsPendingCode(id))));
    expect(await ledger.checkLedger(t.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: pendingIds.sort((x, y) => x! - y!), totalMinor: 0 });
  });
});

describe('issue 30: one name, one sale statement', () => {
  it('refuses a second, different statement under a name already used, instead of running the first one', async () => {
    const buyer = await registerPerson(t.app);
    const seller = await registerPerson(t.app);
    const sale = { buyerId: buyer.id, shares: [{ sellerId: seller.id, amountMinor: 0, platformOwned: false }], commissionPercent: 20, reason: 'test sale' };
    await t.app.db.transaction((tx) => ledger.postSale(tx, sale, { shape: MARKER, values: { markerKey: `once-${buyer.id}` } }));
    const other: ledger.SaleStatementShape = { ...MARKER, columns: () => sql`, 2 as other` };
    await expect(t.app.db.transaction((tx) => ledger.postSale(tx, sale, { shape: other, values: { markerKey: `twice-${buyer.id}` } }))).rejects.toThrow(
      "Two different sale statements are named 'test_marker'.",
    );
    const marker = await t.app.db.execute(sql`select key from site_settings where key like ${`%-${buyer.id}`} order by key`);
    expect(rowsOf<{ key: string }>(marker).map((r) => r.key)).toEqual([`once-${buyer.id}`]);
  });
});
