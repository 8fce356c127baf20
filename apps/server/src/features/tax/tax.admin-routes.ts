import { okEnvelope, ossQuery, ossReport as ossReportView, platformSeller, vatRate, vatRateInput, vatRateParams } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { vatRates } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { isUniqueViolation } from '../../lib/pg-errors';
import { recordAudit } from '../audit';
import { platformSellerOf, savePlatformSeller } from './invoice-pdf';
import { ossCsv, ossReport } from './oss';
import { listVatRates } from './tax.queries';
import { isEuCountry } from './vat';

const rateAnswer = (r: { id: number; country: string; rateBp: number; validFrom: string }) => ({
  id: r.id,
  country: r.country,
  rate: r.rateBp / 100,
  valid_from: r.validFrom,
});

/** Staff: the VAT rates table, the seller shown on invoices, and the One-Stop Shop report (issue 33). */
export const taxAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['admin'];
  const taken = () => validationError({ valid_from: 'This country already has a rate from this day: change that one instead.' });
  const notEu = () => validationError({ country: 'Only the 27 EU countries have VAT rates here; buyers elsewhere pay 0 %.' });

  app.get('/tax/rates', { config: guard('admin'), schema: { tags, response: { 200: okEnvelope(z.array(vatRate)) } } }, async () =>
    ok((await listVatRates(app.db)).map(rateAnswer)),
  );

  app.post('/tax/rates', { config: guard('admin'), schema: { tags, body: vatRateInput, response: { 200: okEnvelope(vatRate) } } }, async (request) => {
    const { country, rate, valid_from } = request.body;
    if (!isEuCountry(country)) throw notEu();
    try {
      const [row] = await app.db
        .insert(vatRates)
        .values({ country, rateBp: Math.round(rate * 100), validFrom: valid_from })
        .returning();
      await recordAudit(app.db, {
        staffId: currentUser(request).id,
        action: 'vat_rate.create',
        subjectType: 'vat_rate',
        subjectId: row!.id,
        after: request.body,
      });
      return ok(rateAnswer(row!));
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  });

  app.put(
    '/tax/rates/:id',
    { config: guard('admin'), schema: { tags, params: vatRateParams, body: vatRateInput, response: { 200: okEnvelope(vatRate) } } },
    async (request) => {
      const { country, rate, valid_from } = request.body;
      if (!isEuCountry(country)) throw notEu();
      try {
        const [row] = await app.db
          .update(vatRates)
          .set({ country, rateBp: Math.round(rate * 100), validFrom: valid_from, updatedAt: new Date() })
          .where(eq(vatRates.id, request.params.id))
          .returning();
        if (!row) throw new AppError('NOT_FOUND', 'This rate does not exist.');
        await recordAudit(app.db, {
          staffId: currentUser(request).id,
          action: 'vat_rate.update',
          subjectType: 'vat_rate',
          subjectId: row.id,
          after: request.body,
        });
        return ok(rateAnswer(row));
      } catch (err) {
        if (isUniqueViolation(err)) throw taken();
        throw err;
      }
    },
  );

  app.get('/tax/seller', { config: guard('admin'), schema: { tags, response: { 200: okEnvelope(platformSeller) } } }, async () =>
    ok(await platformSellerOf(app.db)),
  );
  app.put('/tax/seller', { config: guard('admin'), schema: { tags, body: platformSeller, response: { 200: okEnvelope(platformSeller) } } }, async (request) => {
    await savePlatformSeller(app.db, request.body);
    return ok(await platformSellerOf(app.db));
  });

  app.get('/tax/oss', { config: guard('admin'), schema: { tags, querystring: ossQuery, response: { 200: okEnvelope(ossReportView) } } }, async (request) =>
    ok(await ossReport(app.db, request.query.quarter)),
  );
  app.get('/tax/oss.csv', { config: guard('admin'), schema: { tags, querystring: ossQuery } }, async (request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="oss-${request.query.quarter}.csv"`)
      .header('cache-control', 'no-store')
      .send(ossCsv(await ossReport(app.db, request.query.quarter))),
  );
};
