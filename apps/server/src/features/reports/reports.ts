import {
  type AdminReport,
  type AdminReportGroup,
  REPORT_APPEAL_MONTHS,
  REPORTS_PER_DAY,
  type Report,
  type ReportAppealDecideInput,
  type ReportDecideInput,
  type ReportInput,
  type ReportReason,
  type ReportStatus,
  type ReportSubjectType,
  type StatementOfReasons,
  type TransparencyPeriod,
} from '@atelier/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatMessages, chats, products, reports, reviews, users } from '../../db/schema';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { mailHtml, sendMail } from '../../lib/mail';
import { enforceRateLimit } from '../../lib/rate-limit';
import { recordAudit } from '../audit';
import { notify } from '../notifications';
import { setReviewRemoved } from '../reviews';

/**
 * Notice and action (issue 33, DSA arts. 16, 17, 20, 24). A report names a subject; staff decide on it
 * (every open report about the same subject is answered by the one decision); the decision's effect is
 * the subject's `moderation` column, which the one visibility rule (db/visibility.ts) reads.
 *
 * The life of a report:
 *   open --decide (staff)--> decided         the author gets a statement of reasons, the reporters the outcome
 *   decided --appeal (author, within 6 months, once)--> appealed
 *   appealed --appeal-decide (staff)--> decided   upheld, or reversed (the effect is undone)
 * Exits: a decision of no_action closes the report; an appeal not sent within 6 months lapses.
 */

const REPORT_NOT_FOUND = 'This report was not found.';
const SUBJECT_NOT_FOUND: Record<ReportSubjectType, string> = {
  product: 'This work was not found.',
  review: 'This review was not found.',
  user: 'This creator was not found.',
  message: 'This message was not found.',
};
const SUBJECT_WORDS: Record<ReportSubjectType, string> = { product: 'your work', review: 'your review', user: 'your profile', message: 'your chat message' };
const DECISION_WORDS = {
  remove: 'removed: it is no longer shown anywhere on Atelier',
  restrict: 'restricted: it is no longer in the shop, and stays available to those who bought it',
  no_action: 'left as it is: no action was taken',
} as const;
const GROUND_WORDS = {
  law: 'it is illegal under the law that applies',
  terms: 'it breaks the Atelier terms of service',
} as const;

type Subject = { type: ReportSubjectType; id: number; title: string; link: string | null; authorId: number | null; moderation: string | null };

const productLink = (p: { slug: string; productType: string }) => `/${p.productType === 'pack' ? 'packs' : 'products'}/${encodeURIComponent(p.slug)}`;

/**
 * The subject a report names, as the public (or, for a message, a participant) can see it: null when
 * it does not exist or the caller could not have seen it. `viewerId` is needed for chat messages only.
 */
async function findSubject(db: Db, type: ReportSubjectType, id: number, opts: { viewerId?: number | null; any?: boolean } = {}): Promise<Subject | null> {
  if (type === 'product') {
    const [row] = await db
      .select({
        id: products.id,
        title: products.title,
        slug: products.slug,
        productType: products.productType,
        authorId: products.authorId,
        status: products.status,
        moderation: products.moderation,
      })
      .from(products)
      .where(eq(products.id, id))
      .limit(1);
    if (!row || (!opts.any && (row.status !== 'published' || row.moderation === 'removed'))) return null;
    return { type, id, title: row.title, link: productLink(row), authorId: row.authorId, moderation: row.moderation };
  }
  if (type === 'review') {
    const [row] = await db
      .select({
        id: reviews.id,
        userId: reviews.userId,
        hiddenAt: reviews.hiddenAt,
        moderation: reviews.moderation,
        title: products.title,
        slug: products.slug,
        productType: products.productType,
      })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(eq(reviews.id, id))
      .limit(1);
    if (!row || (!opts.any && row.hiddenAt !== null)) return null;
    return { type, id, title: `A review of “${row.title}”`, link: `${productLink(row)}#reviews`, authorId: row.userId, moderation: row.moderation };
  }
  if (type === 'user') {
    const [row] = await db
      .select({ id: users.id, nickname: users.nickname, deletedAt: users.deletedAt, moderation: users.moderation })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    if (!row || (!opts.any && (row.deletedAt !== null || row.moderation === 'removed'))) return null;
    return {
      type,
      id,
      title: `The profile of ${row.nickname}`,
      link: `/profile/${encodeURIComponent(row.nickname)}`,
      authorId: row.id,
      moderation: row.moderation,
    };
  }
  const [row] = await db
    .select({
      id: chatMessages.id,
      userId: chatMessages.userId,
      kind: chatMessages.kind,
      moderation: chatMessages.moderation,
      senderId: chats.senderId,
      recipientId: chats.recipientId,
    })
    .from(chatMessages)
    .innerJoin(chats, eq(chats.id, chatMessages.chatId))
    .where(eq(chatMessages.id, id))
    .limit(1);
  // Only a participant of the chat can have seen the message; anyone else is told it does not exist.
  if (!row) return null;
  if (!opts.any && (row.moderation === 'removed' || row.kind === 'system' || (opts.viewerId !== row.senderId && opts.viewerId !== row.recipientId)))
    return null;
  return { type, id, title: 'A chat message', link: null, authorId: row.userId, moderation: row.moderation };
}

/** What a decision does to its subject; `undo` puts it back as it was published. */
async function applyEffect(tx: Db, subject: Subject, effect: 'removed' | 'restricted' | null) {
  if (subject.type === 'product') await tx.update(products).set({ moderation: effect }).where(eq(products.id, subject.id));
  else if (subject.type === 'review') await setReviewRemoved(tx, subject.id, effect === 'removed');
  else if (subject.type === 'user')
    await tx
      .update(users)
      .set({ moderation: effect === 'removed' ? 'removed' : null })
      .where(eq(users.id, subject.id));
  else
    await tx
      .update(chatMessages)
      .set({ moderation: effect === 'removed' ? 'removed' : null })
      .where(eq(chatMessages.id, subject.id));
}

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

type ReportRow = typeof reports.$inferSelect;

function toReport(row: ReportRow, subject: Pick<Subject, 'type' | 'id' | 'title' | 'link'>): Report {
  return {
    id: row.id,
    subject: { type: subject.type, id: subject.id, title: subject.title, link: subject.link },
    reason: row.reason,
    status: row.status,
    created_at: seconds(row.createdAt)!,
    decision: row.decision,
    decided_at: seconds(row.decidedAt),
  };
}

function appealDeadline(decidedAt: Date): Date {
  const until = new Date(decidedAt);
  until.setUTCMonth(until.getUTCMonth() + REPORT_APPEAL_MONTHS);
  return until;
}

function toStatement(row: ReportRow, subject: Subject): StatementOfReasons {
  return {
    report_id: row.id,
    subject: { type: subject.type, id: subject.id, title: subject.title, link: subject.link },
    reason: row.reason,
    decision: row.decision!,
    ground: row.ground!,
    explanation: row.decisionExplanation ?? '',
    automated: false,
    decided_at: seconds(row.decidedAt)!,
    appeal: {
      open_until: row.appealedAt || row.decision === 'no_action' ? null : seconds(appealDeadline(row.decidedAt!)),
      message: row.appealMessage,
      appealed_at: seconds(row.appealedAt),
      outcome: row.appealOutcome,
      explanation: row.appealExplanation,
    },
  };
}

/**
 * Files a report. A reporter (an account, or a guest's e-mail, and a guest's address too) may send
 * REPORTS_PER_DAY a day, counted atomically before anything is written. The reporter gets a receipt.
 */
export async function createReport(
  db: Db,
  input: ReportInput,
  who: { user: { id: number; email: string; name: string; surname: string } | null; ip: string },
): Promise<Report> {
  const email = input.email ?? who.user?.email;
  if (!email) throw validationError({ email: 'Please give your e-mail address, so we can tell you what we decide.' });
  const subject = await findSubject(db, input.subject_type, input.subject_id, { viewerId: who.user?.id ?? null });
  if (!subject) throw new AppError('NOT_FOUND', SUBJECT_NOT_FOUND[input.subject_type], { subject_id: [SUBJECT_NOT_FOUND[input.subject_type]] });
  if (who.user && subject.authorId === who.user.id) throw validationError({ subject_id: 'This is your own content: you can change or delete it yourself.' });
  const limit = { limit: REPORTS_PER_DAY, windowSeconds: 24 * 3600 };
  const tooMany = `You can send at most ${REPORTS_PER_DAY} reports a day.`;
  if (who.user) await enforceRateLimit(db, `report:user:${who.user.id}`, limit, tooMany);
  else {
    await enforceRateLimit(db, `report:email:${email.toLowerCase()}`, limit, tooMany);
    await enforceRateLimit(db, `report:ip:${who.ip}`, limit, tooMany);
  }
  const name = input.name ?? (who.user ? `${who.user.name} ${who.user.surname}`.trim() : null);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reports)
      .values({
        subjectType: subject.type,
        subjectId: subject.id,
        authorId: subject.authorId,
        reporterId: who.user?.id ?? null,
        reporterEmail: email,
        reporterName: name || null,
        reason: input.reason,
        explanation: input.explanation,
        goodFaith: input.good_faith,
      })
      .returning();
    const lines = [
      `We received your report #${row!.id} about ${subject.title.charAt(0).toLowerCase()}${subject.title.slice(1)}.`,
      `Reason: ${input.reason.replaceAll('_', ' ')}.`,
      'A person on our staff will look at it and tell you what we decide by e-mail.',
    ];
    await sendMail(tx, { to: email, subject: `We received your report #${row!.id}`, text: lines.join('\n\n'), html: mailHtml(lines) });
    return toReport(row!, subject);
  });
}

/** The reports a signed-in user sent, newest first. */
export async function listMyReports(db: Db, userId: number): Promise<Report[]> {
  const rows = await db.select().from(reports).where(eq(reports.reporterId, userId)).orderBy(desc(reports.id)).limit(200);
  return Promise.all(rows.map(async (row) => toReport(row, (await findSubject(db, row.subjectType, row.subjectId, { any: true })) ?? gone(row))));
}

const gone = (row: ReportRow): Subject => ({
  type: row.subjectType,
  id: row.subjectId,
  title: 'Content that no longer exists',
  link: null,
  authorId: row.authorId,
  moderation: null,
});

/** The statements of reasons about the user's content (decisions with an effect or not), newest first. */
export async function listMyStatements(db: Db, authorId: number): Promise<StatementOfReasons[]> {
  const rows = await db
    .select()
    .from(reports)
    .where(and(eq(reports.authorId, authorId), inArray(reports.status, ['decided', 'appealed'])))
    .orderBy(desc(reports.decidedAt), asc(reports.id))
    .limit(200);
  // One statement per decision: the reports about one subject decided together share it; the first stands for them.
  const seen = new Set<string>();
  const out: StatementOfReasons[] = [];
  for (const row of rows) {
    const key = `${row.subjectType}:${row.subjectId}:${row.decidedAt?.getTime()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(toStatement(row, (await findSubject(db, row.subjectType, row.subjectId, { any: true })) ?? gone(row)));
  }
  return out;
}

/** One report as its reporter or its subject's author sees it; anyone else gets a 404. */
export async function readReport(db: Db, userId: number, reportId: number): Promise<{ report: Report; statement: StatementOfReasons | null }> {
  const [row] = await db.select().from(reports).where(eq(reports.id, reportId)).limit(1);
  if (!row || (row.reporterId !== userId && row.authorId !== userId)) throw notFound(REPORT_NOT_FOUND);
  const subject = (await findSubject(db, row.subjectType, row.subjectId, { any: true })) ?? gone(row);
  return { report: toReport(row, subject), statement: row.authorId === userId && row.decidedAt ? toStatement(row, subject) : null };
}

async function lockReport(tx: Db, reportId: number): Promise<ReportRow> {
  const [row] = await tx.select().from(reports).where(eq(reports.id, reportId)).for('update').limit(1);
  if (!row) throw notFound(REPORT_NOT_FOUND);
  return row;
}

/**
 * Staff decide a report, and with it every open report about the same subject. `restrict` applies to
 * works only (it keeps a work with its buyers); the effect, the audit record, the statement of reasons
 * (e-mail and bell) and each reporter's outcome are written in one transaction.
 */
export async function decideReport(db: Db, staffId: number, reportId: number, input: ReportDecideInput): Promise<Report> {
  return db.transaction(async (tx) => {
    const row = await lockReport(tx, reportId);
    if (row.status !== 'open') throw new AppError('CONFLICT', 'This report was already decided.');
    if (input.decision === 'restrict' && row.subjectType !== 'product') {
      throw validationError({
        decision: 'Restricting keeps a work available to its buyers only: for a review, a profile or a message, choose remove or no_action.',
      });
    }
    const subject = (await findSubject(tx, row.subjectType, row.subjectId, { any: true })) ?? gone(row);
    const group = await tx
      .select()
      .from(reports)
      .where(and(eq(reports.subjectType, row.subjectType), eq(reports.subjectId, row.subjectId), eq(reports.status, 'open')))
      .orderBy(asc(reports.id))
      .for('update');
    const now = new Date();
    const decided = await tx
      .update(reports)
      .set({ status: 'decided', decision: input.decision, ground: input.ground, decisionExplanation: input.explanation, decidedBy: staffId, decidedAt: now })
      .where(
        inArray(
          reports.id,
          group.map((r) => r.id),
        ),
      )
      .returning();
    const effect = input.decision === 'remove' ? 'removed' : input.decision === 'restrict' ? 'restricted' : null;
    if (effect) await applyEffect(tx, subject, effect);
    await recordAudit(tx, {
      staffId,
      action: `report.${input.decision}`,
      subjectType: 'report',
      subjectId: row.id,
      before: { status: 'open', subject: `${subject.type}:${subject.id}`, moderation: subject.moderation },
      after: { status: 'decided', decision: input.decision, ground: input.ground, reports: decided.map((r) => r.id), moderation: effect ?? subject.moderation },
    });
    const mine = decided.find((r) => r.id === row.id)!;
    if (subject.authorId !== null && input.decision !== 'no_action') await tellAuthor(tx, mine, subject);
    for (const r of decided) await tellReporter(tx, r, subject);
    return toReport(mine, subject);
  });
}

async function tellAuthor(tx: Db, row: ReportRow, subject: Subject) {
  const [author] = await tx.select({ email: users.email, deletedAt: users.deletedAt }).from(users).where(eq(users.id, subject.authorId!)).limit(1);
  const what = SUBJECT_WORDS[subject.type];
  const lines = [
    `Statement of reasons for report #${row.id}.`,
    `What we decided: ${what} (${subject.title}) was ${DECISION_WORDS[row.decision!]}.`,
    `Why: ${GROUND_WORDS[row.ground!]}. ${row.decisionExplanation}`,
    `The report gave this reason: ${row.reason.replaceAll('_', ' ')}.`,
    'Automated means: none. A person on our staff made this decision; no automated tool detected or decided it.',
    `How to appeal: you may appeal within ${REPORT_APPEAL_MONTHS} months from your dashboard (Reports about my content), and a different person will look at it again. You may also turn to an out-of-court dispute settlement body or a court.`,
  ];
  await notify(tx, {
    userId: subject.authorId!,
    kind: 'report_decision',
    text: `Staff ${row.decision === 'remove' ? 'removed' : 'restricted'} ${what} after a report. Read why, and appeal if you disagree.`,
    link: '/dashboard/reports',
    data: { reportId: row.id },
  });
  if (author && !author.deletedAt) {
    await sendMail(tx, { to: author.email, subject: `A decision about ${what} (report #${row.id})`, text: lines.join('\n\n'), html: mailHtml(lines) });
  }
}

async function tellReporter(tx: Db, row: ReportRow, subject: Subject) {
  const lines = [
    `We decided on your report #${row.id} about ${subject.title.charAt(0).toLowerCase()}${subject.title.slice(1)}.`,
    `Outcome: the content was ${DECISION_WORDS[row.decision!]}.`,
    'A person on our staff made this decision; no automated tool decided it. Thank you for telling us.',
  ];
  await sendMail(tx, { to: row.reporterEmail, subject: `Your report #${row.id}: our decision`, text: lines.join('\n\n'), html: mailHtml(lines) });
  if (row.reporterId !== null) {
    await notify(tx, {
      userId: row.reporterId,
      kind: 'report_decision',
      text: `We decided on your report #${row.id}: ${row.decision?.replace('_', ' ')}.`,
      data: { reportId: row.id },
    });
  }
}

/** The author appeals a decision with an effect, once, within REPORT_APPEAL_MONTHS of it. */
export async function appealReport(db: Db, userId: number, reportId: number, message: string): Promise<StatementOfReasons> {
  return db.transaction(async (tx) => {
    const row = await lockReport(tx, reportId);
    // Only the author of the subject may appeal; for anyone else the report does not exist.
    if (row.authorId !== userId) throw notFound(REPORT_NOT_FOUND);
    if (row.status === 'open') throw new AppError('CONFLICT', 'This report has not been decided yet: there is nothing to appeal.');
    if (row.decision === 'no_action') throw new AppError('CONFLICT', 'No action was taken on your content: there is nothing to appeal.');
    if (row.appealedAt) throw new AppError('CONFLICT', 'You have already appealed this decision.');
    if (appealDeadline(row.decidedAt!).getTime() < Date.now()) {
      throw new AppError('CONFLICT', `The time to appeal has passed: an appeal may be sent within ${REPORT_APPEAL_MONTHS} months of the decision.`);
    }
    const [updated] = await tx
      .update(reports)
      .set({ status: 'appealed', appealMessage: message, appealedAt: new Date() })
      .where(eq(reports.id, row.id))
      .returning();
    const subject = (await findSubject(tx, row.subjectType, row.subjectId, { any: true })) ?? gone(row);
    return toStatement(updated!, subject);
  });
}

/** Staff answer an appeal: uphold, or reverse (the subject is put back). Audited; author and reporters are told. */
export async function decideAppeal(db: Db, staffId: number, reportId: number, input: ReportAppealDecideInput): Promise<Report> {
  return db.transaction(async (tx) => {
    const row = await lockReport(tx, reportId);
    if (row.status !== 'appealed') throw new AppError('CONFLICT', 'This report has no appeal waiting for a decision.');
    const subject = (await findSubject(tx, row.subjectType, row.subjectId, { any: true })) ?? gone(row);
    const [updated] = await tx
      .update(reports)
      .set({ status: 'decided', appealOutcome: input.outcome, appealExplanation: input.explanation, appealDecidedBy: staffId, appealDecidedAt: new Date() })
      .where(eq(reports.id, row.id))
      .returning();
    if (input.outcome === 'reversed') await applyEffect(tx, subject, null);
    await recordAudit(tx, {
      staffId,
      action: `report.appeal_${input.outcome}`,
      subjectType: 'report',
      subjectId: row.id,
      before: { status: 'appealed', decision: row.decision, moderation: subject.moderation },
      after: { status: 'decided', appeal_outcome: input.outcome, moderation: input.outcome === 'reversed' ? null : subject.moderation },
    });
    const what = SUBJECT_WORDS[subject.type];
    const outcome =
      input.outcome === 'reversed'
        ? `We reversed our decision: ${what} (${subject.title}) is restored.`
        : `We upheld our decision about ${what} (${subject.title}).`;
    const lines = [`Your appeal on report #${row.id} was decided by a person on our staff.`, outcome, input.explanation];
    if (subject.authorId !== null) {
      await notify(tx, { userId: subject.authorId, kind: 'report_decision', text: outcome, link: '/dashboard/reports', data: { reportId: row.id } });
      const [author] = await tx.select({ email: users.email }).from(users).where(eq(users.id, subject.authorId)).limit(1);
      if (author) await sendMail(tx, { to: author.email, subject: `Your appeal (report #${row.id})`, text: lines.join('\n\n'), html: mailHtml(lines) });
    }
    return toReport(updated!, subject);
  });
}

/** The staff queue: reports in `status`, grouped by subject, the group with the oldest report first. */
export async function listReportGroups(db: Db, status: ReportStatus): Promise<AdminReportGroup[]> {
  const rows = await db.select().from(reports).where(eq(reports.status, status)).orderBy(asc(reports.id)).limit(500);
  const groups = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const key = `${row.subjectType}:${row.subjectId}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const authorIds = [...new Set(rows.map((r) => r.authorId).filter((id): id is number => id !== null))];
  const authors = authorIds.length ? await db.select({ id: users.id, nickname: users.nickname }).from(users).where(inArray(users.id, authorIds)) : [];
  const out: AdminReportGroup[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const subject = (await findSubject(db, first.subjectType, first.subjectId, { any: true })) ?? gone(first);
    out.push({
      subject: { type: subject.type, id: subject.id, title: subject.title, link: subject.link },
      author: authors.find((a) => a.id === first.authorId) ?? null,
      moderation: (subject.moderation as 'removed' | 'restricted' | null) ?? null,
      reports: group.map(
        (r): AdminReport => ({
          ...toReport(r, subject),
          reporter: { id: r.reporterId, email: r.reporterEmail, name: r.reporterName },
          explanation: r.explanation,
          ground: r.ground,
          decision_explanation: r.decisionExplanation,
          appeal_message: r.appealMessage,
          appeal_outcome: r.appealOutcome,
        }),
      ),
    });
  }
  return out;
}

/** Public transparency figures per half-year (`2026-H2`), newest first: counts by reason and decision, median hours to decide. */
export async function transparencyFigures(db: Db): Promise<TransparencyPeriod[]> {
  const period = sql<string>`extract(year from ${reports.createdAt} at time zone 'UTC')::int || '-H' || (case when extract(month from ${reports.createdAt} at time zone 'UTC') <= 6 then 1 else 2 end)`;
  const byReason = await db.select({ period, reason: reports.reason, n: sql<number>`count(*)::int` }).from(reports).groupBy(sql`1`, reports.reason);
  const byDecision = await db
    .select({ period, decision: reports.decision, n: sql<number>`count(*)::int` })
    .from(reports)
    .where(sql`${reports.decision} is not null`)
    .groupBy(sql`1`, reports.decision);
  const timing = await db
    .select({
      period,
      median: sql<number | null>`percentile_cont(0.5) within group (order by extract(epoch from ${reports.decidedAt} - ${reports.createdAt}) / 3600.0)`,
      appeals: sql<number>`count(${reports.appealedAt})::int`,
      reversed: sql<number>`count(*) filter (where ${reports.appealOutcome} = 'reversed')::int`,
    })
    .from(reports)
    .groupBy(sql`1`);
  const periods = [...new Set(byReason.map((r) => r.period))].sort().reverse();
  return periods.map((p) => {
    const t = timing.find((x) => x.period === p);
    const reasons: Partial<Record<ReportReason, number>> = {};
    for (const r of byReason.filter((x) => x.period === p)) reasons[r.reason] = Number(r.n);
    const decisions: Record<string, number> = {};
    for (const d of byDecision.filter((x) => x.period === p)) decisions[d.decision!] = Number(d.n);
    return {
      period: p,
      reports: Object.values(reasons).reduce((a, b) => a + b, 0),
      by_reason: reasons,
      by_decision: decisions,
      appeals: Number(t?.appeals ?? 0),
      reversed: Number(t?.reversed ?? 0),
      median_hours_to_decide: t?.median == null ? null : Math.round(Number(t.median) * 10) / 10,
    };
  });
}
