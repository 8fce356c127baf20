import { describe, expect, it } from 'vitest';
import { stylesInKeywords } from './offers';
import { cardPayoutInput, isIbanValid, isLuhnValid } from './payouts';

describe('payout checks', () => {
  it('Luhn: test cards pass, a changed digit fails', () => {
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4000000000000002')).toBe(true);
    expect(isLuhnValid('5555555555554444')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('42a2')).toBe(false);
  });

  it('IBAN: mod-97 with letters, spaces and lower case', () => {
    expect(isIbanValid('DE89370400440532013000')).toBe(true);
    expect(isIbanValid('de89 3704 0044 0532 0130 00')).toBe(true);
    expect(isIbanValid('FR1420041010050500013M02606')).toBe(true);
    expect(isIbanValid('GB82WEST12345698765432')).toBe(true);
    expect(isIbanValid('DE89370400440532013001')).toBe(false);
    expect(isIbanValid('DE8937')).toBe(false);
  });

  it('card payout: SPEC §5 messages, expiry checked against this month', () => {
    const year = new Date().getUTCFullYear();
    const base = {
      id: 1,
      first_name: 'A',
      last_name: 'B',
      email: 'a@example.com',
      phone: '1',
      address: 'x',
      city: 'y',
      post_code: 'z',
      country: 620,
      card_number: '4242 4242 4242 4242',
      expire_month: 12,
      expire_year: year,
      terms: true,
      card_holder_name: 'A B',
    };
    expect(cardPayoutInput.safeParse(base).success).toBe(true);
    const messages = (input: object) => cardPayoutInput.safeParse(input).error?.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    expect(messages({ ...base, card_number: '4242' })).toEqual(['card_number: Please enter a valid card number']);
    expect(messages({ ...base, expire_month: 13 })).toEqual(['expire_month: Please enter a valid expiry month (1-12)']);
    expect(messages({ ...base, expire_year: year + 21 })).toEqual(['expire_year: Please enter a valid expiry year']);
    if (new Date().getUTCMonth() > 0) expect(messages({ ...base, expire_month: 1 })).toEqual(['expire_month: Card has expired. Please use a valid card']);
    expect(messages({ ...base, terms: false })).toEqual(['terms: Please agree to the terms and conditions.']);
    expect(messages({ ...base, city: ' ' })).toEqual(['city: City is required.']);
  });

  it('styles are found in the space-joined keywords, titles with spaces included', () => {
    expect(stylesInKeywords('Photo-realism 3D Rendering Vintage/Retro')).toEqual(['Photo-realism', 'Vintage/Retro', '3D Rendering']);
    expect(stylesInKeywords('Rendering 3D')).toEqual([]);
  });
});
