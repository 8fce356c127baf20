import { createDiscountInput, discountAnswer, discountList, discountParams, okEnvelope, okMessage, updateDiscountInput } from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { recordAudit } from '../audit';
import { createDiscount, deleteDiscount, listDiscounts, updateDiscount } from './discounts.queries';

/** Platform codes and sales for platform-owned works (issue 34), under /api/admin; each change is audited in its transaction. */
export const discountsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['admin'];
  const inTx = <T>(work: (tx: Db) => Promise<T>) => app.db.transaction((tx) => work(tx));

  app.get('/discounts', { config: guard('admin'), schema: { tags, response: { 200: okEnvelope(discountList) } } }, async () =>
    ok({ discounts: await listDiscounts(app.db, null) }),
  );

  app.post(
    '/discounts',
    { config: guard('admin'), schema: { tags, body: createDiscountInput, response: { 200: okEnvelope(discountAnswer) } } },
    async (request) => {
      const discount = await inTx(async (tx) => {
        const made = await createDiscount(tx, null, request.body);
        await recordAudit(tx, { staffId: currentUser(request).id, action: 'discount.create', subjectType: 'discount', subjectId: made.id, after: made });
        return made;
      });
      return ok({ discount }, 'The platform discount was created.');
    },
  );

  app.patch(
    '/discounts/:id',
    { config: guard('admin'), schema: { tags, params: discountParams, body: updateDiscountInput, response: { 200: okEnvelope(discountAnswer) } } },
    async (request) => {
      const discount = await inTx(async (tx) => {
        const { before, after } = await updateDiscount(tx, null, request.params.id, request.body);
        await recordAudit(tx, { staffId: currentUser(request).id, action: 'discount.update', subjectType: 'discount', subjectId: after.id, before, after });
        return after;
      });
      return ok({ discount }, 'The platform discount was saved.');
    },
  );

  app.delete('/discounts/:id', { config: guard('admin'), schema: { tags, params: discountParams, response: { 200: okMessage } } }, async (request) => {
    await inTx(async (tx) => {
      const gone = await deleteDiscount(tx, null, request.params.id);
      await recordAudit(tx, {
        staffId: currentUser(request).id,
        action: 'discount.delete',
        subjectType: 'discount',
        subjectId: gone.id,
        before: { code: gone.code },
      });
    });
    return { status: 'OK' as const, message: 'The platform discount was deleted.' };
  });
};
