import type { Balance } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ledgerAccounts } from '../../db/schema';
import { type DisplayCurrency, displayAmount } from '../../lib/display-currency';
import { balanceOf } from './ledger';

/** The balance as the wire shows it: EUR cents, and the amount in the display currency. */
export async function balanceAnswer(db: Db, userId: number, currency: DisplayCurrency): Promise<Balance> {
  return amountAnswer(await balanceOf(db, userId), currency);
}

/** Any amount of EUR cents in the shape of the balance (earnings, withdrawals). */
export function amountAnswer(minor: number, currency: DisplayCurrency): Balance {
  return { amount: displayAmount(minor, currency), currency: currency.code, currencySymbol: currency.symbol, amount_minor: minor };
}

/** The user's balance with their account row locked (FOR UPDATE) until the caller's transaction ends; 0 without an account. */
export async function lockedBalanceOf(tx: Db, userId: number): Promise<number> {
  const [row] = await tx.select({ balance: ledgerAccounts.balanceMinor }).from(ledgerAccounts).where(eq(ledgerAccounts.userId, userId)).for('update');
  return row ? Number(row.balance) : 0;
}
