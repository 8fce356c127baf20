import { z } from 'zod';
import { idParam, plainNumber, requiredText, text } from './fields';
import { balance } from './ledger';

/**
 * The back office's own calls (issue 10), all under /api/admin and for staff only: the money screen
 * (ledger accounts, journal, reconciliation, manual adjustments), the audit log and users. The
 * review queue and payouts keep their contracts in offers.ts and payouts.ts.
 */

export const adminIdParams = z.object({ id: idParam('id') });

const amount = (label: string) =>
  plainNumber(z.number({ error: `Please enter a valid ${label}.` }), { signed: true })
    .refine(Number.isFinite, `Please enter a valid ${label}.`)
    .refine((v) => v !== 0, `The ${label} may not be zero.`)
    .refine((v) => Math.abs(v) <= 1_000_000, `The ${label} may be at most 1000000.`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `The ${label} may have at most 2 decimals.`);

/** A ledger account with its cached balance (EUR cents). */
export const ledgerAccountView = z.object({
  id: z.number().int(),
  kind: z.enum([
    'user',
    'platform_revenue',
    'provider_clearing',
    'earnings_pending',
    'earnings_available',
    'earnings_held',
    'receivable',
    'withdrawal_clearing',
    'dispute_hold',
    'vat_payable',
  ]),
  /** System accounts: 'platform:revenue', 'clearing:sandbox', 'earnings:pending:<user id>', …; null for a user's balance account. */
  code: z.string().nullable(),
  /** The balance account's user, or the creator an earnings account (pending, available, receivable) belongs to. */
  user: z.object({ id: z.number().int(), nickname: z.string(), email: z.string() }).nullable(),
  balance_minor: z.number().int(),
  allow_negative: z.boolean(),
});
export type LedgerAccountView = z.infer<typeof ledgerAccountView>;

/** GET /api/admin/ledger/journal: newest first, filtered by account, user, reason text and dates. */
export const journalQuery = z.object({
  account_id: idParam('account id').optional(),
  user_id: idParam('user id').optional(),
  reason: text('reason').trim().max(200, 'The reason filter may have at most 200 characters.').optional(),
  /** Dates as yyyy-mm-dd (UTC), both inclusive. */
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be yyyy-mm-dd.')
    .refine((v) => !Number.isNaN(Date.parse(v)), 'The date must be yyyy-mm-dd.')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be yyyy-mm-dd.')
    .refine((v) => !Number.isNaN(Date.parse(v)), 'The date must be yyyy-mm-dd.')
    .optional(),
  limit: z.coerce.number({ error: 'The limit must be a number.' }).int().min(1).max(500).default(100),
});
export type JournalQuery = z.infer<typeof journalQuery>;

export const journalTransaction = z.object({
  id: z.number().int(),
  reason: z.string(),
  created_at: z.number().int(),
  entries: z.array(z.object({ account_id: z.number().int(), account: z.string(), amount_minor: z.number().int() })),
});
export type JournalTransaction = z.infer<typeof journalTransaction>;

/** The reconciliation tile: green when everything checks out, else red with the first mismatch. */
export const reconciliation = z.object({
  ok: z.boolean(),
  checked_at: z.number().int(),
  transactions: z.number().int(),
  accounts: z.number().int(),
  unbalanced_transactions: z.array(z.number().int()),
  drifted_accounts: z.array(z.number().int()),
  /** Image generations charged longer ago than their jobs can take, with neither image nor refund (issue 17, hole 4). */
  unsettled_generations: z.array(z.number().int()),
  /**
   * Users (by id) whose pending + available earnings + receivable differ from what their sales,
   * refunds, withdrawals and disputes brought in and took out (the other side of every journal line).
   */
  unbalanced_earnings: z.array(z.number().int()),
  /**
   * Earnings accounts (by id) whose balance differs from their sold lines (issue 30): a creator's
   * pending earnings from what their pending lines still hold, their held earnings from what their held lines hold.
   */
  unmatched_earnings_lines: z.array(z.number().int()),
  /** The disputes hold differs from the sum of the open disputes (chargebacks). */
  dispute_hold_minor: z.number().int(),
  /**
   * Disputes (by id) whose own hold is wrong: its opening moved another amount than it holds, it holds
   * money while closed (or not all of it while open), or its payment is held beyond its amount (issue 29).
   */
  mismatched_disputes: z.array(z.number().int()),
  /** VAT accounts (by id; 0: a country whose lines owe VAT without an account) whose balance differs from the VAT its sold lines not refunded stored (issue 33). */
  mismatched_vat: z.array(z.number().int()).optional(),
  /** Sum of every balance (0 when money was only moved). */
  total_minor: z.number().int(),
  first_mismatch: z
    .object({
      kind: z.enum(['transaction', 'account', 'earnings', 'earnings_lines', 'total', 'dispute_hold', 'dispute', 'generation', 'vat']),
      id: z.number().int().nullable(),
      /**
       * transaction: the sum of its entries; account: its cached balance; earnings (id: the user): their
       * pending + available + receivable; total: the sum of balances; dispute_hold (id: the account):
       * its balance; dispute (id: the dispute): what its opening moved to the hold; generation: its charge.
       */
      actual_minor: z.number().int(),
      /**
       * transaction and total: 0; account: the sum of its journal entries; earnings: what the other side
       * of their journal lines adds up to; dispute_hold: the open disputes' amounts; dispute: its amount; generation: 0 (an
       * image or a refund was due).
       */
      expected_minor: z.number().int(),
    })
    .nullable(),
});
export type Reconciliation = z.infer<typeof reconciliation>;

/** A user as the money screen names them. */
const moneyUser = z.object({ id: z.number().int(), nickname: z.string(), email: z.string() });

/** GET /api/admin/disputes?status=open|won|lost: card payments' disputes (chargebacks), newest first. */
export const adminDisputesQuery = z.object({
  status: z.enum(['open', 'won', 'lost'], { error: 'The status must be open, won or lost.' }).optional(),
});
export type AdminDisputesQuery = z.infer<typeof adminDisputesQuery>;

export const adminDispute = z.object({
  id: z.number().int(),
  provider: z.string(),
  /** The provider's id of the dispute (Stripe's du_…). */
  provider_dispute_id: z.string(),
  deposit_id: z.number().int(),
  user: moneyUser,
  status: z.enum(['open', 'won', 'lost']),
  reason: z.string().nullable(),
  /** What the dispute holds, in the visitor's currency with the EUR cents (`amount_minor`). */
  amount: balance,
  /** EUR cents taken from the balance, and from the receivable for what was already spent. */
  from_balance_minor: z.number().int(),
  from_receivable_minor: z.number().int(),
  created_at: z.number().int(),
  closed_at: z.number().int().nullable(),
});
export type AdminDispute = z.infer<typeof adminDispute>;

/**
 * GET /api/admin/deposits/flagged: deposits whose payment event did not match them (amount or
 * currency; issue 30): nothing was credited, and staff look at each. Newest first.
 */
export const adminFlaggedDeposit = z.object({
  id: z.number().int(),
  provider: z.string(),
  user: moneyUser,
  status: z.string(),
  /** What the deposit asked, in its currency's minor units and its code. */
  currency_amount_minor: z.number().int(),
  currency: z.string(),
  /** What the provider reported against what was expected. */
  reason: z.string(),
  flagged_at: z.number().int(),
});
export type AdminFlaggedDeposit = z.infer<typeof adminFlaggedDeposit>;

/** GET /api/admin/receivables: every receivable that is not zero (below zero: the user owes it), most owed first. */
export const adminReceivable = z.object({
  account_id: z.number().int(),
  user: moneyUser,
  /** The receivable's balance (negative: owed), in the visitor's currency with the EUR cents. */
  amount: balance,
});
export type AdminReceivable = z.infer<typeof adminReceivable>;

/**
 * POST /api/admin/ledger/adjustments: moves `amount` (EUR, may be negative) onto the account, the
 * other side booked on the platform's adjustments account, journalled like every movement.
 */
export const adjustmentInput = z.object({
  account_id: idParam('account id'),
  amount: amount('amount'),
  reason: requiredText('reason', 500),
});
export type AdjustmentInput = z.infer<typeof adjustmentInput>;
export const adjustmentResult = z.object({ transaction_id: z.number().int(), account: ledgerAccountView });

/** Audit subjects: what a staff action was done to. */
/** `settings` is the one site-settings record (subject id 0); a currency is named by its code in before/after (subject id 0). */
export const AUDIT_SUBJECTS = [
  'offer',
  'payout',
  'product',
  'user',
  'ledger_account',
  'contact_message',
  'settings',
  'static_page',
  'currency',
  'social_link',
  'job',
  'review',
  'refund_request',
  'report',
  'seller_details',
  'vat_rate',
  'discount',
  'bundle',
] as const;
export type AuditSubject = (typeof AUDIT_SUBJECTS)[number];

/** GET /api/admin/audit?staff_id=&subject= ; subject is `offer` or `offer:12`. */
export const auditQuery = z.object({
  staff_id: idParam('staff id').optional(),
  subject: z
    .string()
    .max(40)
    .regex(new RegExp(`^(${AUDIT_SUBJECTS.join('|')})(:\\d{1,15})?$`), `The subject must be one of ${AUDIT_SUBJECTS.join(', ')}, optionally followed by :id.`)
    .optional(),
  limit: z.coerce.number({ error: 'The limit must be a number.' }).int().min(1).max(500).default(200),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number().int(),
  staff: z.object({ id: z.number().int(), nickname: z.string(), email: z.string() }),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.number().int(),
  before: z.unknown(),
  after: z.unknown(),
  at: z.number().int(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /api/admin/users?q= : search by e-mail, nickname or name (or an id). */
export const adminUsersQuery = z.object({
  q: text('search').trim().max(100, 'The search may have at most 100 characters.').default(''),
  limit: z.coerce.number({ error: 'The limit must be a number.' }).int().min(1).max(200).default(50),
});

export const adminUser = z.object({
  id: z.number().int(),
  email: z.string(),
  nickname: z.string(),
  name: z.string(),
  surname: z.string(),
  role: z.enum(['user', 'admin']),
  blocked: z.boolean(),
  /** A dispute (chargeback) was opened on one of their card payments (issue 19). */
  disputed: z.boolean(),
  deleted: z.boolean(),
  created_at: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUserDetail = z.object({
  user: adminUser,
  balance_minor: z.number().int(),
  orders: z.array(z.object({ id: z.number().int(), title: z.string(), amount_minor: z.number().int(), status: z.string(), created_at: z.number().int() })),
  offers: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      status: z.string(),
      user_price_minor: z.number().int(),
      service_price_minor: z.number().int().nullable(),
      created_at: z.number().int(),
    }),
  ),
  journal: z.array(z.object({ transaction_id: z.number().int(), reason: z.string(), amount_minor: z.number().int(), created_at: z.number().int() })),
});
export type AdminUserDetail = z.infer<typeof adminUserDetail>;

/**
 * POST /api/admin/users/{id}/block: staff confirm the block with a reason, which goes into the audit
 * log and the e-mail the user gets (issue 18 bug 3).
 */
export const adminBlockInput = z.object({ reason: requiredText('reason', 500) });
export type AdminBlockInput = z.infer<typeof adminBlockInput>;

/** POST /api/admin/users/{id}/role */
export const adminRoleInput = z.object({ role: z.enum(['user', 'admin'], { error: 'The role must be user or admin.' }) });

/** GET /api/admin/messages?status= : contact-form messages, open ones first by default. */
export const adminMessagesQuery = z.object({
  status: z.enum(['open', 'handled', 'all'], { error: 'The status must be open, handled or all.' }).default('open'),
});
export const contactMessageView = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  user_id: z.number().int().nullable(),
  created_at: z.number().int(),
  handled_at: z.number().int().nullable(),
});
export type ContactMessageView = z.infer<typeof contactMessageView>;
/** POST /api/admin/messages/{id}/reply: an e-mail to the sender through the mail outbox; the message is then handled. */
export const messageReplyInput = z.object({
  subject: requiredText('subject', 200),
  text: requiredText('reply', 10_000),
});
export type MessageReplyInput = z.infer<typeof messageReplyInput>;
/** POST /api/admin/messages/{id}/handled */
export const messageHandledInput = z.object({ handled: z.boolean({ error: 'Say whether the message is handled.' }) });

/** Back office: the site settings staff edit (SPEC §3 settings plus the commerce ones), GET and PATCH /api/admin/settings. */
export const adminSettings = z.object({
  is_reg_enabled: z.boolean(),
  is_email_verification_enabled: z.boolean(),
  internal_currency_name: z.string(),
  support_email: z.string(),
  copyright: z.string(),
  commission_percent: z.number(),
  deposit_min: z.number(),
  deposit_max: z.number(),
  generation_price: z.number(),
  /** Days a creator's share stays pending before it is available (0: at once). */
  earnings_clearing_days: z.number().int(),
  /** The smallest withdrawal of earnings, in EUR. */
  withdrawal_min: z.number(),
});
export type AdminSettings = z.infer<typeof adminSettings>;

const money2 = (label: string) =>
  z
    .number({ error: `The ${label} must be a number.` })
    .min(0, `The ${label} may not be negative.`)
    .max(1_000_000, `The ${label} may be at most 1000000.`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `The ${label} may have at most 2 decimals.`);

export const adminSettingsUpdate = z
  .object({
    is_reg_enabled: z.boolean({ error: 'Registration must be on or off.' }),
    is_email_verification_enabled: z.boolean({ error: 'E-mail verification must be on or off.' }),
    internal_currency_name: requiredText('internal currency name', 40),
    // Shown to blocked users and in e-mails as the address to write to: it must be one (issue 29).
    support_email: text('support e-mail')
      .trim()
      .min(1, 'The support e-mail is required: an address such as support@example.com.')
      .max(254, 'The support e-mail may have at most 254 characters.')
      .pipe(z.email({ error: 'The support e-mail must be an e-mail address, such as support@example.com.' })),
    copyright: text('copyright').trim().max(200, 'The copyright may have at most 200 characters.'),
    commission_percent: z
      .number({ error: 'The commission must be a number.' })
      .min(0, 'The commission is 0 to 100 percent.')
      .max(100, 'The commission is 0 to 100 percent.'),
    deposit_min: money2('smallest deposit').refine((v) => v > 0, 'The smallest deposit must be above zero.'),
    deposit_max: money2('largest deposit').refine((v) => v > 0, 'The largest deposit must be above zero.'),
    generation_price: money2('generation price'),
    earnings_clearing_days: z
      .number({ error: 'The clearing period must be a whole number of days.' })
      .int('The clearing period must be a whole number of days.')
      .min(0, 'The clearing period is 0 to 365 days.')
      .max(365, 'The clearing period is 0 to 365 days.'),
    withdrawal_min: money2('smallest withdrawal').refine((v) => v > 0, 'The smallest withdrawal must be above zero.'),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Send at least one setting to change.', path: ['is_reg_enabled'] });
export type AdminSettingsUpdate = z.infer<typeof adminSettingsUpdate>;

const packItemIds = z
  .array(idParam('product id'), { error: 'The items must be a list of product ids.' })
  .min(2, 'A pack holds at least 2 products.')
  .max(50, 'A pack holds at most 50 products.')
  .refine((ids) => new Set(ids).size === ids.length, 'A product may be in a pack only once.');

/** POST /api/admin/packs: a new pack built from products (a staff-built pack is platform-owned). */
export const adminPackCreate = z.object({
  title: requiredText('title', 200),
  description: text('description').trim().max(5000, 'The description may be at most 5000 characters.').default(''),
  price: z
    .number({ error: 'The price must be a number.' })
    .positive('The price must be above zero.')
    .max(1_000_000, 'The price may be at most 1000000.')
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'The price may have at most 2 decimals.'),
  category_id: idParam('category id').optional(),
  product_ids: packItemIds,
  status: z.enum(['draft', 'published'], { error: 'The status must be draft or published.' }).default('draft'),
});
export type AdminPackCreate = z.infer<typeof adminPackCreate>;
/** PUT /api/admin/packs/{id}/items: the pack's whole item list, in order. */
export const adminPackItems = z.object({ product_ids: packItemIds });
export const adminPack = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  status: z.string(),
  price_minor: z.number().int(),
  product_ids: z.array(z.number().int()),
});
export type AdminPack = z.infer<typeof adminPack>;

/** Back office: a static page as staff edit it; `content` is the stored, sanitised HTML. */
export const adminStaticPage = z.object({ id: z.number().int(), slug: z.string(), title: z.string(), content: z.string(), updated_at: z.number().int() });
export type AdminStaticPage = z.infer<typeof adminStaticPage>;
/** PUT /api/admin/static-pages/{id}: the HTML is sanitised on the server (no script, handlers or foreign schemes). */
export const adminStaticPageUpdate = z.object({
  title: requiredText('title', 200),
  content: text('content').max(200_000, 'The page may have at most 200000 characters.'),
});
/** POST /api/admin/static-pages/preview: the HTML as it would be stored. */
export const adminPreviewInput = z.object({ content: text('content').max(200_000, 'The page may have at most 200000 characters.') });
export const adminPreview = z.object({ content: z.string() });

/** Back office: a currency and its rate (units per 1 EUR, an exact decimal). */
export const adminCurrency = z.object({ code: z.string(), symbol: z.string(), rate: z.string(), decimals: z.number().int(), is_default: z.boolean() });
export type AdminCurrency = z.infer<typeof adminCurrency>;
export const adminCurrencyParams = z.object({
  code: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'The currency code has 3 letters.')
    .transform((v) => v.toUpperCase()),
});
export const adminCurrencyUpdate = z.object({
  rate: z
    .string({ error: 'The rate must be a decimal number.' })
    .trim()
    .regex(/^\d{1,9}(\.\d{1,8})?$/, 'The rate must be a positive decimal with at most 8 decimals.')
    .refine((v) => Number(v) > 0, 'The rate must be above zero.'),
  symbol: text('symbol').trim().min(1, 'Please give a symbol.').max(5, 'The symbol may have at most 5 characters.'),
});

/** Back office: social links (URL and icon). */
export const adminSocialLinkInput = z.object({
  url: text('url')
    .trim()
    .max(500)
    .pipe(z.url({ protocol: /^https?$/, error: 'Please enter an http(s) address.' })),
  image: text('image').trim().min(1, 'Please give an icon.').max(500, 'The icon may have at most 500 characters.'),
});

/** Back office job queue (issue 17, operations): jobs waiting, running or failed. */
export const ADMIN_JOB_STATES = ['queued', 'running', 'failed'] as const;
export type AdminJobState = (typeof ADMIN_JOB_STATES)[number];
export const ADMIN_JOBS_PER_PAGE = 50;

/** GET /api/admin/jobs?state=&page= ; without a state: queued, running and failed together. */
export const adminJobsQuery = z.object({
  state: z.enum(ADMIN_JOB_STATES, { error: 'The state must be one of queued, running, failed.' }).optional(),
  page: z.coerce
    .number({ error: 'The page must be a whole number from 1 to 10000.' })
    .int('The page must be a whole number from 1 to 10000.')
    .min(1, 'The page must be a whole number from 1 to 10000.')
    .max(10_000, 'The page must be a whole number from 1 to 10000.')
    .default(1),
});
export type AdminJobsQuery = z.infer<typeof adminJobsQuery>;

export const adminJob = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.enum(ADMIN_JOB_STATES),
  attempts: z.number().int(),
  /** The last failed attempt's message (kept while the job is retried). */
  last_error: z.string().nullable(),
  /** queued: not before; running and failed: when it was last due. Unix seconds. */
  run_at: z.number().int(),
  /** running: when this attempt times out. */
  timeout_at: z.number().int().nullable(),
  created_at: z.number().int(),
  finished_at: z.number().int().nullable(),
});
export type AdminJob = z.infer<typeof adminJob>;

export const adminJobsPage = z.object({
  jobs: z.array(adminJob),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type AdminJobsPage = z.infer<typeof adminJobsPage>;
