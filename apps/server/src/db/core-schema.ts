import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, numeric, pgEnum, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { FileMeta } from '../lib/file-meta';
import { jsonb } from './json-column';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** A full-text search document; written by triggers (migration 0004), never by application code. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const userRole = pgEnum('user_role', ['user', 'admin']);

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    nickname: text('nickname').notNull(),
    phone: text('phone').notNull().default(''),
    aboutMe: text('about_me').notNull().default(''),
    /** Hourly rate in minor units of the base currency. */
    hourlyRateMinor: bigint('hourly_rate_minor', { mode: 'number' }).notNull().default(0),
    avatarPath: text('avatar_path'),
    role: userRole('role').notNull().default('user'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    phoneVerifiedAt: timestamp('phone_verified_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Presence (migration 0010): moved at most once a minute; online means seen in the last 2 minutes. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** Blocked by staff (migration 0013): sessions ended, sign-in refused while set. */
    blockedAt: timestamp('blocked_at', { withTimezone: true }),
    /** Set when a dispute (chargeback) was opened on one of the user's card payments (migration 0029). */
    disputedAt: timestamp('disputed_at', { withTimezone: true }),
    /** The weekly e-mail of followed creators' new works (migration 0030): on unless turned off. */
    weeklyDigest: boolean('weekly_digest').notNull().default(true),
    /** When the last weekly digest went out: the next one lists only what came after. */
    digestSentAt: timestamp('digest_sent_at', { withTimezone: true }),
    /** Staff removed the profile after a report (migration 0041): hidden with the creator's works. */
    moderation: text('moderation').$type<'removed'>(),
    /** The country the user states for VAT (migration 0042): one piece of evidence, and their choice when the others disagree. */
    taxCountry: text('tax_country'),
    /** A business buyer's VAT number, checked offline (features/tax); another EU country's means reverse charge. */
    vatNumber: text('vat_number'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`), uniqueIndex('users_nickname_lower_idx').on(sql`lower(${t.nickname})`)],
);

export const categories = pgTable(
  'categories',
  {
    id: id(),
    parentId: bigint('parent_id', { mode: 'number' }).references((): never => categories.id as never),
    title: text('title').notNull(),
    url: text('url').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('categories_url_idx').on(t.url), index('categories_parent_idx').on(t.parentId)],
);

export const productTypeEnum = pgEnum('product_type', ['image', 'doc', 'prompt', 'pack']);
export const productStatus = pgEnum('product_status', ['draft', 'published', 'hidden']);

export const products = pgTable(
  'products',
  {
    id: id(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    productType: productTypeEnum('product_type').notNull(),
    categoryId: bigint('category_id', { mode: 'number' }).references(() => categories.id),
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    /** Price in minor units of the base currency (EUR). */
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    /** Licence tiers (migration 0049): `priceMinor` is the commercial licence; these are null when not offered. */
    personalPriceMinor: bigint('personal_price_minor', { mode: 'number' }),
    extendedPriceMinor: bigint('extended_price_minor', { mode: 'number' }),
    status: productStatus('status').notNull().default('published'),
    /** Public preview (WebP) under the storage's public area. */
    previewPath: text('preview_path'),
    /** The file a buyer pays for, in the storage's private area. */
    originalPath: text('original_path'),
    originalName: text('original_name'),
    /** What the original is (migration 0046, lib/file-meta.ts): measured on upload, or by the catalog.describe_files job for older rows. */
    fileMeta: jsonb<FileMeta>('file_meta'),
    /** Prompt text for prompt products: private until bought. */
    promptText: text('prompt_text'),
    popularity: integer('popularity').notNull().default(0),
    /** The sum and count of the product's visible review ratings (migration 0025), moved with each review write. */
    ratingSum: integer('rating_sum').notNull().default(0),
    ratingCount: integer('rating_count').notNull().default(0),
    /** Owned by the platform (after an offer buy-out): a sale credits platform revenue in full. */
    platformOwned: boolean('platform_owned').notNull().default(false),
    /** A staff decision after a report (migration 0041): removed (hidden everywhere) or restricted (its buyers only). */
    moderation: text('moderation').$type<'removed' | 'restricted'>(),
    /** Weighted: title A, tag names B, author C, description D; kept current by triggers. */
    searchDocument: tsvector('search_document').notNull().default(sql`''::tsvector`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('products_slug_idx').on(t.slug),
    index('products_search_idx').using('gin', t.searchDocument),
    index('products_status_created_idx').on(t.status, t.createdAt),
    index('products_type_idx').on(t.productType, t.id),
    index('products_category_idx').on(t.categoryId),
    index('products_author_idx').on(t.authorId),
    index('products_rating_idx').on(sql`(${t.ratingSum}::float8 / nullif(${t.ratingCount}, 0)) desc nulls last`, sql`${t.ratingCount} desc`, sql`${t.id} desc`),
  ],
);

export const packItems = pgTable(
  'pack_items',
  {
    packId: bigint('pack_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.packId, t.productId] })],
);

export const tags = pgTable('tags', { id: id(), name: text('name').notNull() }, (t) => [uniqueIndex('tags_name_idx').on(t.name)]);

export const productTags = pgTable(
  'product_tags',
  {
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    tagId: bigint('tag_id', { mode: 'number' })
      .notNull()
      .references(() => tags.id),
  },
  (t) => [primaryKey({ columns: [t.productId, t.tagId] }), index('product_tags_tag_idx').on(t.tagId)],
);

export const currencies = pgTable('currencies', {
  code: text('code').primaryKey(),
  symbol: text('symbol').notNull(),
  /** Units of this currency per 1 unit of the base currency. */
  rate: numeric('rate', { precision: 18, scale: 8, mode: 'string' }).notNull().default('1'),
  /** Digits after the decimal point in this currency's amounts (EUR 2, JPY 0). */
  decimals: smallint('decimals').notNull().default(2),
  isDefault: boolean('is_default').notNull().default(false),
  position: integer('position').notNull().default(0),
});

export const staticPages = pgTable(
  'static_pages',
  {
    id: id(),
    slug: text('slug').notNull(),
    title: text('title').notNull(),
    /** Sanitized HTML: cleaned when written, never at read time. */
    content: text('content').notNull(),
    isTerms: smallint('is_terms').notNull().default(0),
    isPrivacy: smallint('is_privacy').notNull().default(0),
    isCookie: smallint('is_cookie').notNull().default(0),
    position: integer('position').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('static_pages_slug_idx').on(t.slug)],
);

export const socialLinks = pgTable('social_links', {
  id: id(),
  url: text('url').notNull(),
  image: text('image').notNull(),
  position: integer('position').notNull().default(0),
});

/** One row per setting; the settings call assembles them. */
export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

export const languages = pgTable('languages', {
  id: id(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
});

export const translations = pgTable(
  'translations',
  {
    locale: text('locale').notNull(),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.locale, t.key] })],
);

/** Server-side sessions (SPEC §9: 2 hours idle); any number of app servers share them. */
export const sessions = pgTable(
  'sessions',
  {
    /** sha256 of the cookie token: a stolen database does not yield usable cookies. */
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the cookies last went out with a fresh idle lifetime (sliding sessions, lib/session.ts). */
    cookieSentAt: timestamp('cookie_sent_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when staff blocked the account this session was signed in to (then userId is null). */
    blockedUserId: bigint('blocked_user_id', { mode: 'number' }),
    userAgent: text('user_agent').notNull().default(''),
    /** A coarse hint of the address the session started from ("203.0.113.x"), never the full address (migration 0023). */
    ipHint: text('ip_hint').notNull().default(''),
    /** When this session's user last proved a second factor (TOTP, later a passkey); step-up checks it (migration 0023). */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    /** When this session last proved who it is by any means: a sign-in, a password or second-factor step-up (migration 0034). */
    provedAt: timestamp('proved_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_last_seen_idx').on(t.lastSeenAt)],
);

/** Messages sent through the contact page, for the back office to read. */
export const contactMessages = pgTable('contact_messages', {
  id: id(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  message: text('message').notNull(),
  userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
  ip: text('ip').notNull().default(''),
  readAt: timestamp('read_at', { withTimezone: true }),
  /** Dealt with by staff (migration 0013). */
  handledAt: timestamp('handled_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Fixed-window counters shared by every app server: login attempts, resends, contact form. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/** Every e-mail the product sends; delivered by SMTP when configured, else read at /dev/mail. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to)],
);

export const userTokenKind = pgEnum('user_token_kind', ['password_reset', 'phone_code']);

/** Single-use secrets sent to a user (reset links, phone codes); only their hash is kept. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: userTokenKind('kind').notNull(),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('user_tokens_user_kind_idx').on(t.userId, t.kind), uniqueIndex('user_tokens_hash_idx').on(t.tokenHash)],
);

export const jobState = pgEnum('job_state', ['pending', 'running', 'done', 'failed']);

/**
 * The job queue (lib/jobs.ts): rows are written inside the caller's transaction and run after
 * commit by a poller on every app server, claimed with FOR UPDATE SKIP LOCKED.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull().default({}),
    state: jobState('state').notNull().default('pending'),
    /** Not before this moment; a failed attempt moves it forward by the backoff. */
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** At most one waiting or running job per (name, key): a second enqueue with the key is a no-op. */
    singletonKey: text('singleton_key'),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedBy: text('locked_by'),
    /** While running: when this attempt times out (its handler's timeout from the claim); past it, any server retries or fails it. */
    timeoutAt: timestamp('timeout_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`${t.state} = 'pending'`),
    index('jobs_running_idx').on(t.lockedAt).where(sql`${t.state} = 'running'`),
    index('jobs_timeout_idx').on(t.timeoutAt).where(sql`${t.state} = 'running'`),
    index('jobs_state_idx').on(t.state, t.id),
    uniqueIndex('jobs_singleton_idx').on(t.name, t.singletonKey).where(sql`${t.state} in ('pending', 'running')`),
    index('jobs_finished_idx').on(t.finishedAt),
  ],
);

/** Recurring jobs (lib/jobs.ts `schedule`): the server whose update moves next_run_at enqueues that period's run. */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  everySeconds: integer('every_seconds').notNull(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull().defaultNow(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
});

/** The last answer of a scheduled operational check (the ledger reconciliation), read by every server's metrics. */
export const opsChecks = pgTable('ops_checks', {
  name: text('name').primaryKey(),
  ok: boolean('ok').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});

export type GenerationStatus = 'pending' | 'done' | 'refunded' | 'failed';

/**
 * An image generation (features/generation): written with its charge and its job in one transaction;
 * the job ends it as an image (done) or a refund (refunded; failed when nothing was charged).
 */
export const generations = pgTable(
  'generations',
  {
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    promptId: bigint('prompt_id', { mode: 'number' }).references(() => products.id, { onDelete: 'set null' }),
    promptText: text('prompt_text').notNull(),
    format: text('format').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    chargeTransactionId: bigint('charge_transaction_id', { mode: 'number' }),
    refundTransactionId: bigint('refund_transaction_id', { mode: 'number' }),
    status: text('status').$type<GenerationStatus>().notNull().default('pending'),
    resultKey: text('result_key'),
    generator: text('generator'),
    /** Past this moment a pending generation is a reconciliation mismatch (a charge with neither image nor refund). */
    settleBy: timestamp('settle_by', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** When the buyer was told by a notification that it finished after their request had ended (migration 0035). */
    buyerToldAt: timestamp('buyer_told_at', { withTimezone: true }),
  },
  (t) => [index('generations_pending_idx').on(t.settleBy).where(sql`${t.status} = 'pending'`), index('generations_user_list_idx').on(t.userId, t.id.desc())],
);
