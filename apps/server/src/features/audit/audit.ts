import type { AuditEntry, AuditQuery, AuditSubject } from '@atelier/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, users } from '../../db/schema';

export type AuditRecord = {
  staffId: number;
  /** `<subject>.<verb>`: 'offer.counter', 'payout.complete', 'user.block', 'ledger.adjustment', … */
  action: string;
  subjectType: AuditSubject;
  subjectId: number;
  /** The fields the action touched, as they were; null when the subject did not exist before. */
  before?: unknown;
  after?: unknown;
};

/**
 * Writes one audit row. Call it with the transaction that makes the change, so the record and the
 * change commit (or roll back) together; the table is append-only (migration 0013).
 */
export async function recordAudit(tx: Db, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    staffId: record.staffId,
    action: record.action,
    subjectType: record.subjectType,
    subjectId: record.subjectId,
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

/** The log, newest first, by staff member and/or subject (`offer` or `offer:12`). */
export async function listAudit(db: Db, query: AuditQuery): Promise<AuditEntry[]> {
  const [type, id] = (query.subject ?? '').split(':');
  const rows = await db
    .select({ row: auditLog, staff: { id: users.id, nickname: users.nickname, email: users.email } })
    .from(auditLog)
    .innerJoin(users, eq(users.id, auditLog.staffId))
    .where(
      and(
        query.staff_id ? eq(auditLog.staffId, query.staff_id) : undefined,
        type ? eq(auditLog.subjectType, type) : undefined,
        id ? eq(auditLog.subjectId, Number(id)) : undefined,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(query.limit);
  return rows.map(({ row, staff }) => ({
    id: row.id,
    staff,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    before: row.before,
    after: row.after,
    at: Math.floor(row.at.getTime() / 1000),
  }));
}
