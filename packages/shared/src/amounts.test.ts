import { describe, expect, it } from 'vitest';
import { adjustmentInput } from './admin';
import { chatPriceProposalInput } from './chat';
import { depositAmountInput } from './deposits';
import { createOfferFields } from './offers';

const LOOSE = [[5], '0x10', ' 7 ', '1e3', '', '+7', '.5', true, null, { value: 5 }];

describe('hole 13: amounts are a JSON number or a plain decimal string only', () => {
  it('hole 13: the deposit amount refuses [5], "0x10", " 7 " and keeps the exact decimal text', () => {
    for (const loose of LOOSE) expect(depositAmountInput.safeParse({ amount: loose }).success, JSON.stringify(loose)).toBe(false);
    expect(depositAmountInput.parse({ amount: '10.50' }).amount).toBe('10.50');
    expect(depositAmountInput.parse({ amount: 10.5 }).amount).toBe('10.5');
  });

  it('hole 13: chat prices, offer prices and staff adjustments refuse loose amounts too', () => {
    for (const loose of LOOSE) {
      expect(chatPriceProposalInput.safeParse({ type: 'price_proposal', amount: loose }).success, JSON.stringify(loose)).toBe(false);
      expect(adjustmentInput.safeParse({ account_id: 1, amount: loose, reason: 'x' }).success, JSON.stringify(loose)).toBe(false);
      const offer = createOfferFields.safeParse({ price: loose });
      expect(offer.success ? undefined : offer.error.issues.some((i) => i.path[0] === 'price'), JSON.stringify(loose)).toBe(true);
    }
    expect(chatPriceProposalInput.parse({ type: 'price_proposal', amount: '5.25' }).amount).toBe(5.25);
    expect(adjustmentInput.parse({ account_id: 1, amount: '-12.5', reason: 'x' }).amount).toBe(-12.5);
  });
});
