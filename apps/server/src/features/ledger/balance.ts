import { type Balance, convertMinor, minorToAmount } from '@atelier/shared';
import type { Db } from '../../db/client';
import type { DisplayCurrency } from '../../lib/display-currency';
import { balanceOf } from './ledger';

/** The balance as the wire shows it: EUR cents, and the amount in the display currency. */
export async function balanceAnswer(db: Db, userId: number, currency: DisplayCurrency): Promise<Balance> {
  const minor = await balanceOf(db, userId);
  return { amount: minorToAmount(convertMinor(minor, currency.rate)), currency: currency.code, currencySymbol: currency.symbol, amount_minor: minor };
}
