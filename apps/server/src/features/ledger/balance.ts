import { type Balance, minorToAmount, toCurrencyMinor } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
import type { DisplayCurrency } from '../../lib/display-currency';
import { balanceOf } from './ledger';

/** The balance as the wire shows it: EUR cents, and the amount in the display currency. */
export async function balanceAnswer(db: Db, userId: number, currency: DisplayCurrency): Promise<Balance> {
  return amountAnswer(await balanceOf(db, userId), currency);
}

/**
 * Any amount of EUR cents in the shape of the balance (earnings, withdrawals). Money a user holds is
 * shown rounded down in the display currency: never more than it buys (a ¥20,000 deposit credits
 * 123.46 €, which is ¥20,000.52 at 162: shown ¥20,000, not ¥20,001). Prices and shortfalls round
 * their own way (up, so that paying the shown shortfall always covers it).
 */
export function amountAnswer(minor: number, currency: DisplayCurrency): Balance {
  const amount = minorToAmount(toCurrencyMinor(minor, currency, 'down'), currency.decimals);
  return { amount, currency: currency.code, currencySymbol: currency.symbol, amount_minor: minor };
}

/** The user's balance with their account row locked (FOR UPDATE) until the caller's transaction ends; 0 without an account. */
export async function lockedBalanceOf(tx: Db, userId: number): Promise<number> {
  const [row] = await tx.select({ balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId)).for('update');
  return row ? Number(row.balance) : 0;
}
