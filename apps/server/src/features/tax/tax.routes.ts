import { buyerTax, okEnvelope, orderDocumentParams, taxCountryAnswer, taxCountryInput } from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { users } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { invoiceDataOf, platformSellerOf, renderInvoicePdf } from './invoice-pdf';
import { assignInvoiceNumber } from './invoices';
import { buyerTaxOf } from './tax.queries';
import { checkVatNumber } from './vat-number';

/** The buyer's side of VAT (issue 33): their stated country and VAT number, and their orders' invoices and credit notes. */
export const taxRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['tax'];

  app.get('/user/tax', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(buyerTax) } } }, async (request) => {
    const decided = await buyerTaxOf(request, currentUser(request).id);
    if ('needsChoice' in decided) return ok({ country: null, rate: 0, list_rate: 0, reverse_charge: false, choices: decided.needsChoice });
    return ok({
      country: decided.country,
      rate: decided.rateBp / 100,
      list_rate: decided.listRateBp / 100,
      reverse_charge: decided.reverseCharge,
      choices: null,
    });
  });

  app.put(
    '/user/tax-country',
    { config: guard('user'), schema: { tags, body: taxCountryInput, response: { 200: okEnvelope(taxCountryAnswer) } } },
    async (request) => {
      const user = currentUser(request);
      const { country } = request.body;
      const raw = request.body.vat_number?.trim() || null;
      let vatNumber: string | null = null;
      if (raw) {
        const checked = checkVatNumber(raw);
        if (!checked.ok) throw validationError({ vat_number: checked.message });
        if (checked.country !== country)
          throw validationError({ vat_number: `This VAT number is from ${checked.country}, not ${country}: please check your country.` });
        vatNumber = checked.number;
      }
      await app.db.update(users).set({ taxCountry: country, vatNumber }).where(eq(users.id, user.id));
      return ok({ tax_country: country, vat_number: vatNumber });
    },
  );

  /** The invoice, or the credit note once something was refunded: only the buyer and staff get it; anyone else a 404. */
  for (const kind of ['invoice', 'credit-note'] as const) {
    app.get(`/orders/:id/${kind}.pdf`, { config: guard('user'), compress: false, schema: { tags, params: orderDocumentParams } }, async (request, reply) => {
      const user = currentUser(request);
      const who = { id: user.id, staff: user.role === 'admin' };
      let data = await invoiceDataOf(app.db, request.params.id, who);
      // An invoice not numbered yet (its receipt job has not run) is numbered now, by the same rule.
      if (data && kind === 'invoice' && !data.order.invoiceNumber) {
        await assignInvoiceNumber(app.db, data.order.id);
        data = await invoiceDataOf(app.db, request.params.id, who);
      }
      const number = kind === 'invoice' ? data?.order.invoiceNumber : data?.order.creditNoteNumber;
      if (!data || !number)
        throw new AppError('NOT_FOUND', kind === 'invoice' ? 'This invoice was not found in your orders.' : 'This order has no credit note.');
      const pdf = await renderInvoicePdf(data, await platformSellerOf(app.db), kind === 'credit-note');
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${kind}-${number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    });
  }
};
