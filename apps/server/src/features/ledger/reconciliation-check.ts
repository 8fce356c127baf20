import type { FastifyInstance } from 'fastify';
import { RECONCILIATION_CHECK, recordCheck } from '../../lib/metrics';
import { reconcile } from './ledger.admin';

export const RECONCILIATION_JOB = 'ledger.reconciliation-check';
/** How often the ledger is reconciled for the metrics (atelier_ledger_reconciliation_ok). */
export const RECONCILIATION_EVERY_S = 300;

/**
 * The reconciliation the back office shows on demand, run every 5 minutes by one app server and its
 * answer stored (ops_checks), so every server's metrics report the same green or red.
 */
export function registerReconciliationCheck(app: FastifyInstance) {
  app.jobs.register(RECONCILIATION_JOB, async (_payload, ctx) => {
    const result = await reconcile(ctx.db);
    await recordCheck(app.database, RECONCILIATION_CHECK, result.ok);
    if (!result.ok) ctx.log.error('ledger reconciliation is red: see the back office money screen');
  });
  app.jobs.schedule(RECONCILIATION_JOB, RECONCILIATION_EVERY_S);
}
