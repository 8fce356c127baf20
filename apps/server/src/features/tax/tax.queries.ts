import { asc, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, rowsOf } from '../../db/client';
import { vatRates } from '../../db/schema';
import { appCache } from '../../lib/app-cache';
import { validationError } from '../../lib/app-error';
import { decideTax, type TaxDecision, type VatRate } from './vat';

export async function listVatRates(db: Db): Promise<VatRate[]> {
  const rows = await db.select().from(vatRates).orderBy(asc(vatRates.country), asc(vatRates.validFrom));
  return rows.map((r) => ({ id: r.id, country: r.country, rateBp: r.rateBp, validFrom: r.validFrom }));
}

/** The rates as this app server keeps them: read once, again when PostgreSQL says they changed (a trigger on vat_rates). */
export const vatRatesOf: (app: FastifyInstance) => Promise<VatRate[]> = appCache('settings', (app) => listVatRates(app.db));

/** Today in UTC as YYYY-MM-DD: the day whose rate a sale takes. */
export const utcDay = (d = new Date()) => d.toISOString().slice(0, 10);

/**
 * The tax of a purchase by the signed-in buyer, decided before its transaction (one query: the
 * profile's country and VAT number and the card country of their last paid deposit; the address's
 * country from GEOIP_DB when set; the rates from the cache). When the evidence disagrees and the buyer
 * has not stated a country, the purchase is refused with a message asking for one (nothing is charged).
 */
export async function taxOfPurchase(request: FastifyRequest, buyerId: number): Promise<TaxDecision> {
  const decided = await buyerTaxOf(request, buyerId);
  if ('needsChoice' in decided) {
    throw validationError({
      tax_country: `Where you are is unclear (${decided.needsChoice.join(', ')}): please choose your country for VAT in your profile, then buy again.`,
    });
  }
  return decided;
}

/** The buyer's tax as decided now, or the countries to choose from when the evidence disagrees. */
export async function buyerTaxOf(request: FastifyRequest, buyerId: number): Promise<TaxDecision | { needsChoice: string[] }> {
  const app = request.server;
  const [rates, rows] = await Promise.all([
    vatRatesOf(app),
    app.db.execute(sql`
      select u.tax_country, u.vat_number,
        (select d.card_country from deposits d where d.user_id = u.id and d.status = 'success' and d.card_country is not null order by d.id desc limit 1) as card_country
      from users u where u.id = ${buyerId}`),
  ]);
  const [row] = rowsOf<{ tax_country: string | null; vat_number: string | null; card_country: string | null }>(rows);
  return decideTax(rates, utcDay(), {
    evidence: { card: row?.card_country ?? null, address: app.geoip.country(request.ip), profile: row?.tax_country ?? null },
    vatNumber: row?.vat_number ?? null,
  });
}
