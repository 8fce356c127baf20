import { z } from 'zod';
import { plainNumber } from './fields';

/**
 * Licence tiers (issue 34). A work sells under up to three licences, from the narrowest to the widest:
 * personal, commercial (the licence every sale had before tiers, at the product's price, the default)
 * and extended (merchandise and resale). Each has its own price; a higher tier always costs more, and
 * a buyer who owns a lower tier upgrades for the difference.
 */
export const LICENCE_TIERS = ['personal', 'commercial', 'extended'] as const;
export type LicenceTier = (typeof LICENCE_TIERS)[number];
export const DEFAULT_LICENCE_TIER: LicenceTier = 'commercial';
/** The lowest price a personal or extended licence may have, in EUR cents. */
export const LICENCE_MIN_PRICE_MINOR = 50;

export const licenceTier = z.enum(LICENCE_TIERS, { error: 'The licence must be personal, commercial or extended.' });

/** Whether `to` is a wider licence than `from`. */
export const isHigherTier = (to: LicenceTier, from: LicenceTier) => LICENCE_TIERS.indexOf(to) > LICENCE_TIERS.indexOf(from);

/** What each licence permits and forbids: the licence page (`/licences/{tier}`) and every LICENCE.txt read it. */
export const LICENCE_TERMS: Record<LicenceTier, { title: string; summary: string; permits: string[]; forbids: string[] }> = {
  personal: {
    title: 'Personal licence',
    summary: 'For your own, non-commercial use.',
    permits: [
      'Use the work in personal projects that earn no money: your home, gifts, private social media, study.',
      'Print the work for yourself.',
      'Change, crop and combine the work for those personal projects.',
    ],
    forbids: [
      'Any use for a business, a client or advertising, or in anything that is sold.',
      'Printing the work on merchandise or products for sale.',
      'Reselling, sharing or giving away the file itself, changed or not.',
    ],
  },
  commercial: {
    title: 'Commercial licence',
    summary: 'For business use, for yourself or for a client.',
    permits: [
      'Everything the personal licence permits.',
      'Use the work for a business or for a client: websites, apps, presentations, social media, advertising.',
      'Use the work in one end product that is sold (a book cover, a game, a video), where the work is not the main thing sold.',
    ],
    forbids: [
      'Printing the work on merchandise or print-on-demand products for sale (mugs, shirts, posters, prints).',
      'Reselling, sharing or giving away the file itself, changed or not, or offering it in a template or asset pack.',
    ],
  },
  extended: {
    title: 'Extended licence',
    summary: 'For merchandise and products made for resale.',
    permits: [
      'Everything the commercial licence permits.',
      'Print the work on merchandise and print-on-demand products for sale, in any number.',
      'Use the work as the main part of an end product for resale (templates, prints, stickers, designs).',
    ],
    forbids: [
      'Reselling, sharing or giving away the file itself, alone or as a stock asset, changed or not.',
      'Claiming the work as your own or registering it as a trademark.',
    ],
  },
};

/** The page that shows a licence's terms. */
export const licencePath = (tier: LicenceTier) => `/licences/${tier}`;

/** A tier's price on the listing: EUR with at most 2 decimals, or null when the tier is not offered. */
const tierPrice = (what: string) =>
  plainNumber(z.number({ error: `Please enter a valid ${what}, or leave it empty to not offer this licence.` }))
    .refine(Number.isFinite, `Please enter a valid ${what}.`)
    .refine((v) => v >= LICENCE_MIN_PRICE_MINOR / 100, `The ${what} must be at least 0.50 €.`)
    .refine((v) => v <= 1_000_000, `The ${what} may be at most 1000000.`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `The ${what} may have at most 2 decimals.`)
    .nullable();

/** The listing's other tiers (PATCH /api/offer/{id}/listing): absent leaves the tier as it is, null stops offering it. */
export const listingTierPrices = {
  personal_price: tierPrice('personal licence price').optional(),
  extended_price: tierPrice('extended licence price').optional(),
};

/**
 * The licences a work is offered under, in the display currency (product answers): commercial always,
 * personal and extended when the creator offers them.
 */
export const productLicence = z.object({ tier: licenceTier, price: z.number() });
export type ProductLicence = z.infer<typeof productLicence>;

/** The messages of the tier rules (a 422 on the field named). */
export const LICENCE_MESSAGES = {
  personalBelow: 'The personal licence must cost less than the commercial licence (the price).',
  extendedAbove: 'The extended licence must cost more than the commercial licence (the price).',
  notOffered: (tier: LicenceTier) => `This work is not offered with the ${tier} licence.`,
  packCommercial: 'Packs are sold with the commercial licence only.',
  notOwned: 'You do not own this work: buy it first.',
  notHigher: (owned: LicenceTier) => `You own the ${owned} licence already: choose a wider licence to upgrade to.`,
} as const;

/** POST /api/purchase/upgrade: the owner of a lower licence pays the difference for a wider one. */
export const upgradeLicenceInput = z.object({
  product_id: z.coerce.number({ error: 'Please choose a product.' }).int().positive('Please choose a product.'),
  licence_tier: licenceTier,
});
export type UpgradeLicenceInput = z.infer<typeof upgradeLicenceInput>;

/** A tier's list price in EUR cents from a product's three prices; null when the tier is not offered. */
export function licencePriceMinor(
  p: { priceMinor: number; personalPriceMinor: number | null; extendedPriceMinor: number | null },
  tier: LicenceTier,
): number | null {
  if (tier === 'commercial') return p.priceMinor;
  const v = tier === 'personal' ? p.personalPriceMinor : p.extendedPriceMinor;
  return v == null ? null : Number(v);
}

/** The tier rules of a listing (personal < commercial < extended), as field errors; empty when they hold. */
export function tierPriceProblems(commercialMinor: number, personalMinor: number | null, extendedMinor: number | null): Record<string, string> {
  const problems: Record<string, string> = {};
  if (personalMinor !== null && personalMinor >= commercialMinor) problems.personal_price = LICENCE_MESSAGES.personalBelow;
  if (extendedMinor !== null && extendedMinor <= commercialMinor) problems.extended_price = LICENCE_MESSAGES.extendedAbove;
  return problems;
}
