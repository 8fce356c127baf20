import { z } from 'zod';
import { okEnvelope } from './envelope';
import { idParam, requiredText, text } from './fields';

/**
 * Notice and action (issue 33, the Digital Services Act): anyone reports a product, a review, a
 * creator profile or a chat message; staff decide (remove, restrict, no action) on a ground (law or
 * terms); the author gets a statement of reasons and may appeal within REPORT_APPEAL_MONTHS.
 */

export const REPORT_SUBJECTS = ['product', 'review', 'user', 'message'] as const;
export const reportSubjectType = z.enum(REPORT_SUBJECTS, { error: 'Please say what you report: product, review, user or message.' });
export type ReportSubjectType = z.infer<typeof reportSubjectType>;

export const REPORT_REASONS = ['illegal_content', 'copyright', 'counterfeit', 'hate_or_harassment', 'adult_content', 'spam', 'other'] as const;
export const reportReason = z.enum(REPORT_REASONS, {
  error: 'Please choose a reason: illegal_content, copyright, counterfeit, hate_or_harassment, adult_content, spam or other.',
});
export type ReportReason = z.infer<typeof reportReason>;

export const REPORT_DECISIONS = ['remove', 'restrict', 'no_action'] as const;
export const reportDecision = z.enum(REPORT_DECISIONS, { error: 'The decision must be remove, restrict or no_action.' });
export type ReportDecision = z.infer<typeof reportDecision>;

export const REPORT_GROUNDS = ['law', 'terms'] as const;
export const reportGround = z.enum(REPORT_GROUNDS, { error: 'The ground must be law or terms.' });
export type ReportGround = z.infer<typeof reportGround>;

/** open: waiting for staff; decided: staff decided (and any appeal was answered); appealed: the author appealed. */
export const REPORT_STATUSES = ['open', 'decided', 'appealed'] as const;
export const reportStatus = z.enum(REPORT_STATUSES, { error: 'The status must be open, decided or appealed.' });
export type ReportStatus = z.infer<typeof reportStatus>;

export const REPORT_EXPLANATION_MIN = 20;
export const REPORT_EXPLANATION_MAX = 5000;
/** How many reports one reporter (an account, or a guest's e-mail) may send in a day. */
export const REPORTS_PER_DAY = 20;
/** The author may appeal a decision for this many months after it. */
export const REPORT_APPEAL_MONTHS = 6;

const explanation = (label: string) =>
  text(label, { error: `Please explain ${label === 'explanation' ? 'what is wrong' : 'the decision'}.` })
    .trim()
    .min(REPORT_EXPLANATION_MIN, `Please explain in at least ${REPORT_EXPLANATION_MIN} characters.`)
    .max(REPORT_EXPLANATION_MAX, `The ${label} may have at most ${REPORT_EXPLANATION_MAX} characters.`);

const reporterEmail = text('email', { error: 'Please enter your e-mail address.' })
  .trim()
  .max(254, 'The email may have at most 254 characters.')
  .pipe(z.email({ error: 'Please enter a valid e-mail address.' }));

/** POST /api/reports. A guest must give an e-mail; a copyright claim needs the claimant's name (checked in superRefine). */
export const reportInput = z
  .object({
    subject_type: reportSubjectType,
    subject_id: idParam('subject id'),
    reason: reportReason,
    explanation: explanation('explanation'),
    name: text('name').trim().max(200, 'The name may have at most 200 characters.').optional(),
    email: reporterEmail.optional(),
    good_faith: z.literal(true, { error: 'Please confirm that you report in good faith and that what you say is accurate.' }),
  })
  .superRefine((value, ctx) => {
    if (value.reason === 'copyright' && !value.name) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'A copyright report needs the name of the rights holder or of the person acting for them.' });
    }
  });
export type ReportInput = z.infer<typeof reportInput>;

export const reportIdParams = z.object({ id: idParam('report id') });

/** POST /api/admin/reports/{id}/decide. */
export const reportDecideInput = z.object({ decision: reportDecision, ground: reportGround, explanation: explanation('decision explanation') });
export type ReportDecideInput = z.infer<typeof reportDecideInput>;

/** POST /api/reports/{id}/appeal: the author's message. */
export const reportAppealInput = z.object({ message: requiredText('message', REPORT_EXPLANATION_MAX) });
export type ReportAppealInput = z.infer<typeof reportAppealInput>;

/** POST /api/admin/reports/{id}/appeal-decide: uphold the decision, or reverse it (a removal is undone). */
export const reportAppealDecideInput = z.object({
  outcome: z.enum(['upheld', 'reversed'], { error: 'The outcome must be upheld or reversed.' }),
  explanation: explanation('decision explanation'),
});
export type ReportAppealDecideInput = z.infer<typeof reportAppealDecideInput>;

export const adminReportsQuery = z.object({ status: reportStatus.default('open') });

export const reportSubject = z.object({ type: reportSubjectType, id: z.number().int(), title: z.string(), link: z.string().nullable() });

/** What the reporter sees of their report. */
export const report = z.object({
  id: z.number().int(),
  subject: reportSubject,
  reason: reportReason,
  status: reportStatus,
  created_at: z.number().int(),
  decision: reportDecision.nullable(),
  decided_at: z.number().int().nullable(),
});
export type Report = z.infer<typeof report>;

/**
 * The statement of reasons (DSA art. 17), as the author of the subject sees it: what was decided,
 * about what, on which ground, why, whether automated means were used (never here), and the appeal.
 */
export const statementOfReasons = z.object({
  report_id: z.number().int(),
  subject: reportSubject,
  reason: reportReason,
  decision: reportDecision,
  ground: reportGround,
  explanation: z.string(),
  automated: z.literal(false),
  decided_at: z.number().int(),
  appeal: z.object({
    /** Until when an appeal may be sent (null once one was sent). */
    open_until: z.number().int().nullable(),
    message: z.string().nullable(),
    appealed_at: z.number().int().nullable(),
    outcome: z.enum(['upheld', 'reversed']).nullable(),
    explanation: z.string().nullable(),
  }),
});
export type StatementOfReasons = z.infer<typeof statementOfReasons>;

/** One report in the staff queue. */
export const adminReport = report.extend({
  reporter: z.object({ id: z.number().int().nullable(), email: z.string(), name: z.string().nullable() }),
  explanation: z.string(),
  ground: reportGround.nullable(),
  decision_explanation: z.string().nullable(),
  appeal_message: z.string().nullable(),
  appeal_outcome: z.enum(['upheld', 'reversed']).nullable(),
});
export type AdminReport = z.infer<typeof adminReport>;

/** The staff queue: reports grouped by what they are about, oldest group first. */
export const adminReportGroup = z.object({
  subject: reportSubject,
  author: z.object({ id: z.number().int(), nickname: z.string() }).nullable(),
  /** The subject's state now: null (visible), removed or restricted. */
  moderation: z.enum(['removed', 'restricted']).nullable(),
  reports: z.array(adminReport),
});
export type AdminReportGroup = z.infer<typeof adminReportGroup>;

/** GET /api/transparency: per half-year (`2026-H2`), counts by reason and by decision, and the median hours to decide. */
export const transparencyPeriod = z.object({
  period: z.string(),
  reports: z.number().int(),
  by_reason: z.record(z.string(), z.number().int()),
  by_decision: z.record(z.string(), z.number().int()),
  appeals: z.number().int(),
  reversed: z.number().int(),
  median_hours_to_decide: z.number().nullable(),
});
export type TransparencyPeriod = z.infer<typeof transparencyPeriod>;
export const transparencyReport = okEnvelope(z.array(transparencyPeriod));
export type TransparencyReport = z.infer<typeof transparencyReport>;
