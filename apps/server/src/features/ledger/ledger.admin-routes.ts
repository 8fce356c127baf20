import {
  adjustmentInput,
  adjustmentResult,
  adminReceivable,
  amountToMinor,
  journalQuery,
  journalTransaction,
  ledgerAccountView,
  minorToAmount,
  okEnvelope,
  reconciliation,
} from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { validationError } from '../../lib/app-error';
import { guard } from '../../lib/auth-guard';
import { requestedCurrency, resolveDisplayCurrency } from '../../lib/display-currency';
import { ok } from '../../lib/envelope';
import { recordAudit } from '../audit';
import { amountAnswer } from './balance';
import { InsufficientFunds, systemAccountId, transfer } from './ledger';
import { findAccount, listAccounts, listJournal, listReceivables, MANUAL_ADJUSTMENTS, reconcile } from './ledger.admin';

/** The money screen, under /api/admin: accounts, the journal, the reconciliation tile and manual adjustments. */
export const ledgerAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ledger/accounts', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(z.array(ledgerAccountView)) } } }, async () =>
    ok(await listAccounts(app.db)),
  );

  app.get(
    '/ledger/journal',
    { config: guard('admin'), schema: { tags: ['admin'], querystring: journalQuery, response: { 200: okEnvelope(z.array(journalTransaction)) } } },
    async (request) => ok(await listJournal(app.db, request.query)),
  );

  app.get('/ledger/reconciliation', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(reconciliation) } } }, async () =>
    ok(await reconcile(app.db)),
  );

  /** Receivables (refunds after a creator was paid, chargebacks of spent deposits): who owes what, in the visitor's currency and EUR cents. */
  app.get('/receivables', { config: guard('admin'), schema: { tags: ['admin'], response: { 200: okEnvelope(z.array(adminReceivable)) } } }, async (request) => {
    const currency = await resolveDisplayCurrency(app, requestedCurrency(request));
    const rows = await listReceivables(app.db);
    return ok(rows.map((r) => ({ account_id: r.accountId, user: r.user, amount: amountAnswer(r.balanceMinor, currency) })));
  });

  /**
   * A manual adjustment: `amount` onto the account, the other side on the adjustments account, one
   * journal transaction whose reason carries the staff member's words, and one audit row, together.
   */
  app.post(
    '/ledger/adjustments',
    { config: { ...guard('admin'), stepUp: true }, schema: { tags: ['admin'], body: adjustmentInput, response: { 200: okEnvelope(adjustmentResult) } } },
    async (request) => {
      const staffId = request.user!.id;
      const { account_id: accountId, amount, reason } = request.body;
      const amountMinor = amountToMinor(amount);
      const result = await app.db.transaction(async (tx) => {
        const before = await findAccount(tx, accountId);
        if (!before) throw validationError({ account_id: 'This ledger account does not exist.' });
        const counter = await systemAccountId(tx, MANUAL_ADJUSTMENTS);
        if (counter === accountId) throw validationError({ account_id: 'The adjustments account cannot be adjusted against itself.' });
        let transactionId: number;
        try {
          ({ transactionId } = await transfer(tx, {
            lines: [
              { accountId, amountMinor },
              { accountId: counter, amountMinor: -amountMinor },
            ],
            kind: 'adjustment',
            subject: { type: 'staff', id: staffId },
            note: reason,
            reason: `manual adjustment by staff ${staffId}: ${reason}`,
          }));
        } catch (err) {
          if (err instanceof InsufficientFunds) {
            throw validationError({ amount: `This would take the account below zero (short by ${minorToAmount(err.shortfallMinor).toFixed(2)} EUR).` });
          }
          throw err;
        }
        const after = (await findAccount(tx, accountId))!;
        await recordAudit(tx, {
          staffId,
          action: 'ledger.adjustment',
          subjectType: 'ledger_account',
          subjectId: accountId,
          before: { balance_minor: before.balance_minor },
          after: { balance_minor: after.balance_minor, amount_minor: amountMinor, transaction_id: transactionId, reason },
        });
        return { transaction_id: transactionId, account: after };
      });
      request.log.info({ accountId, transactionId: result.transaction_id, by: staffId }, 'manual ledger adjustment');
      return ok(result, 'The adjustment is booked.');
    },
  );
};
