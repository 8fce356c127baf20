import { asc, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, rowsOf } from '../../db/client';
import { vatRates } from '../../db/schema';
import { appCache } from '../../lib/app-cache';
import { validationError } from '../../lib/app-error';
import { currentUser } from '../../lib/auth-guard';
import { decideTax, type TaxDecision, type VatRate } from './vat';

export async function listVatRates(db: Db): Promise<VatRate[]> {
  const rows = await db.select().from(vatRates).orderBy(asc(vatRates.country), asc(vatRates.validFrom));
  return rows.map((r) => ({ id: r.id, country: r.country, rateBp: r.rateBp, validFrom: r.validFrom }));
}

/** The rates as this app server keeps them: read once, again when PostgreSQL says they changed (a trigger on vat_rates). */
export const vatRatesOf: (app: FastifyInstance) => Promise<VatRate[]> = appCache('settings', (app) => listVatRates(app.db));

/** Today in UTC as YYYY-MM-DD: the day whose rate a sale takes. */
export const utcDay = (d = new Date()) => d.toISOString().slice(0, 10);

const UNCLEAR = (countries: string[]) =>
  `Where you are is unclear (${countries.join(', ')}): please choose your country for VAT in your profile, then buy again.`;

/** The tax decided, or the 422 asking for a country when the evidence disagrees and the buyer has stated none (nothing is charged). */
function refuseUnclear(decided: TaxDecision | { needsChoice: string[] }): TaxDecision {
  if ('needsChoice' in decided) throw validationError({ tax_country: UNCLEAR(decided.needsChoice) });
  return decided;
}

/**
 * The card country of the buyer's last paid deposit, one piece of the evidence, as a column: a
 * purchase reads it with what it buys (features/orders), so its tax costs no query of its own.
 */
export const buyerCardCountrySql = (buyerId: SQL) =>
  sql`(select d.card_country from deposits d where d.user_id = ${buyerId} and d.status = 'success' and d.card_country is not null order by d.id desc limit 1)`;

/** The evidence and the VAT number decide the tax (features/tax vat.ts): the profile's, the card's and the address's country (GEOIP_DB). */
function decideBuyerTax(
  request: FastifyRequest,
  rates: VatRate[],
  facts: { profile: string | null; vatNumber: string | null; card: string | null },
): TaxDecision | { needsChoice: string[] } {
  return decideTax(rates, utcDay(), {
    evidence: { card: facts.card, address: request.server.geoip.country(request.ip), profile: facts.profile },
    vatNumber: facts.vatNumber,
  });
}

/**
 * The tax of a purchase by the signed-in buyer, decided before its transaction (one query: the
 * profile's country and VAT number and the card country of their last paid deposit; the address's
 * country from GEOIP_DB when set; the rates from the cache). When the evidence disagrees and the buyer
 * has not stated a country, the purchase is refused with a message asking for one (nothing is charged).
 */
export async function taxOfPurchase(request: FastifyRequest, buyerId: number): Promise<TaxDecision> {
  return refuseUnclear(await buyerTaxOf(request, buyerId));
}

/**
 * The same decision for the signed-in buyer's purchase from the balance, whose own read of what it
 * buys carried the card country (buyerCardCountrySql): the profile's country and VAT number are the
 * signed-in user's row, loaded with the request; the rates are this server's (vatRatesOf).
 */
export function taxOfSignedInPurchase(request: FastifyRequest, rates: VatRate[], cardCountry: string | null): TaxDecision {
  const user = currentUser(request);
  return refuseUnclear(decideBuyerTax(request, rates, { profile: user.taxCountry, vatNumber: user.vatNumber, card: cardCountry }));
}

/** The buyer's tax as decided now, or the countries to choose from when the evidence disagrees. */
export async function buyerTaxOf(request: FastifyRequest, buyerId: number): Promise<TaxDecision | { needsChoice: string[] }> {
  const app = request.server;
  const [rates, rows] = await Promise.all([
    vatRatesOf(app),
    app.db.execute(sql`select u.tax_country, u.vat_number, ${buyerCardCountrySql(sql`u.id`)} as card_country from users u where u.id = ${buyerId}`),
  ]);
  const [row] = rowsOf<{ tax_country: string | null; vat_number: string | null; card_country: string | null }>(rows);
  return decideBuyerTax(request, rates, { profile: row?.tax_country ?? null, vatNumber: row?.vat_number ?? null, card: row?.card_country ?? null });
}
