import { vatInside } from '@atelier/shared';
import { checkVatNumber } from './vat-number';

export { vatInside };

/**
 * The VAT rules (issue 33). Atelier, established in Portugal, is the deemed supplier of the
 * electronically supplied works sold through it: it charges the VAT of the buyer's country and declares
 * it through the One-Stop Shop. Prices are set by creators and include VAT for consumers in the EU; the
 * VAT part is carved out at sale time, and the commission and the creator's share are taken from the net.
 */

/** Where the platform is established (the footer's Lisbon): a VAT number from here is never reverse charged. */
export const PLATFORM_COUNTRY = 'PT';

export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
] as const;
export const isEuCountry = (c: string | null | undefined): boolean => !!c && (EU_COUNTRIES as readonly string[]).includes(c);

/** A rate in basis points as the percent people read (1900 → 19, 2550 → 25.5). */
export const ratePercent = (rateBp: number) => rateBp / 100;

/** One row of the rates table. */
export type VatRate = { id: number; country: string; rateBp: number; validFrom: string };

/** The rate of `country` on `day` (YYYY-MM-DD): the row with the latest valid_from on or before it; 0 without one (outside the EU). */
export function rateOn(rates: VatRate[], country: string | null, day: string): number {
  if (!country) return 0;
  let best: VatRate | null = null;
  for (const r of rates) if (r.country === country && r.validFrom <= day && (!best || r.validFrom > best.validFrom)) best = r;
  return best?.rateBp ?? 0;
}

/** The evidence of a buyer's country, each piece an ISO alpha-2 code or null when unknown. */
export type TaxEvidence = { card: string | null; address: string | null; profile: string | null };

/** How the country was decided: two pieces agree, the only piece known, the buyer's choice, their VAT number, or nothing known. */
export type TaxBasis = 'agree' | 'single' | 'choice' | 'vat_number' | 'unknown';

/**
 * The buyer's country from the evidence. Two pieces that agree decide. When they disagree, the buyer
 * chooses: their choice is the country on their profile (`PUT /api/user/tax-country`), kept with the
 * order's evidence; without a stated country the purchase asks for one (`needsChoice`). A single piece
 * decides alone; with none the country is unknown and no VAT is charged. That cannot happen to a buyer
 * who paid a deposit by card (its country is evidence); only to balances made by hand (staff, tests).
 *
 * A purchase from the balance has no card at that moment: the card piece is the country of the card of
 * the buyer's last paid deposit (the money spent came from a card payment, and the provider told us its country).
 */
export function decideCountry(e: TaxEvidence): { country: string | null; basis: TaxBasis } | { needsChoice: string[] } {
  const pieces = [e.card, e.address, e.profile].filter((c): c is string => !!c);
  if (!pieces.length) return { country: null, basis: 'unknown' };
  for (const c of pieces) if (pieces.filter((x) => x === c).length >= 2) return { country: c, basis: 'agree' };
  if (pieces.length === 1) return { country: pieces[0]!, basis: 'single' };
  if (e.profile) return { country: e.profile, basis: 'choice' };
  return { needsChoice: [...new Set(pieces)] };
}

/** What a sale charges: the country, its rate, and whether the buyer accounts for the VAT (reverse charge). */
export type TaxDecision = {
  country: string | null;
  rateBp: number;
  reverseCharge: boolean;
  /** Under reverse charge: the rate of the buyer's country, whose VAT part is taken off the price. */
  listRateBp: number;
  vatNumber: string | null;
  evidence: TaxEvidence & { basis: TaxBasis; vat_number?: string };
};

/**
 * The tax of a sale to this buyer on `day`. A business with a valid VAT number of another EU country
 * than the platform's buys under reverse charge: 0 %, and the price is the net, the listed price less
 * the VAT it would have carried at the buyer's country's rate (the listed price includes VAT for
 * consumers, so a business pays what the platform keeps of a consumer's price in that country). A
 * Portuguese VAT number is a domestic sale: Portuguese VAT is charged. Outside the EU: 0 %.
 */
export function decideTax(rates: VatRate[], day: string, buyer: { evidence: TaxEvidence; vatNumber: string | null }): TaxDecision | { needsChoice: string[] } {
  const vat = buyer.vatNumber ? checkVatNumber(buyer.vatNumber) : null;
  if (vat?.ok && isEuCountry(vat.country)) {
    const evidence = { ...buyer.evidence, basis: 'vat_number' as const, vat_number: vat.number };
    const listRateBp = rateOn(rates, vat.country, day);
    if (vat.country !== PLATFORM_COUNTRY) return { country: vat.country, rateBp: 0, reverseCharge: true, listRateBp, vatNumber: vat.number, evidence };
    return { country: vat.country, rateBp: listRateBp, reverseCharge: false, listRateBp, vatNumber: vat.number, evidence };
  }
  const decided = decideCountry(buyer.evidence);
  if ('needsChoice' in decided) return decided;
  const rateBp = isEuCountry(decided.country) ? rateOn(rates, decided.country, day) : 0;
  return { country: decided.country, rateBp, reverseCharge: false, listRateBp: rateBp, vatNumber: null, evidence: { ...buyer.evidence, basis: decided.basis } };
}

/**
 * Each line's price as paid and its VAT: a consumer pays the price and its VAT is carved out; under
 * reverse charge the line costs its price less the VAT it would have carried, and carries none.
 * `grossMinor` is what the buyer pays for the line before tax rules (after any discount).
 */
export function taxLines(tax: Pick<TaxDecision, 'rateBp' | 'reverseCharge' | 'listRateBp'> | null, grossMinor: number[]): { paid: number[]; vat: number[] } {
  if (!tax) return { paid: grossMinor, vat: grossMinor.map(() => 0) };
  if (tax.reverseCharge) return { paid: grossMinor.map((g) => g - vatInside(g, tax.listRateBp)), vat: grossMinor.map(() => 0) };
  return { paid: grossMinor, vat: grossMinor.map((g) => vatInside(g, tax.rateBp)) };
}
