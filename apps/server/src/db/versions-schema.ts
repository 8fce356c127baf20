/**
 * Product updates (migration 0050_product_versions, issue 34): the versions of a creator's listed
 * work, and which buyers were told of each (the fan-out job's record, so a retry tells no one twice).
 */
import type { ProductVersionStatus } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { FileMeta } from '../lib/file-meta';
import { products, users } from './core-schema';
import { jsonb } from './json-column';

export const productVersions = pgTable(
  'product_versions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    productId: bigint('product_id', { mode: 'number' })
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** 1: the work as first published; each update the next number. */
    number: integer('number').notNull(),
    status: text('status').$type<ProductVersionStatus>().notNull(),
    notes: text('notes').notNull().default(''),
    /** What the file is by its bytes (features/offers' check): jpeg, png, pdf, txt… */
    fileType: text('file_type'),
    originalPath: text('original_path'),
    originalName: text('original_name'),
    previewPath: text('preview_path'),
    fileMeta: jsonb<FileMeta>('file_meta'),
    /** A prompt's text (a prompt's file is its text), read at upload so approval needs no storage call. */
    promptText: text('prompt_text'),
    /** Why staff rejected it. */
    reviewNote: text('review_note'),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }).references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('product_versions_number_idx').on(t.productId, t.number),
    index('product_versions_review_idx').on(t.createdAt).where(sql`status = 'pending_review'`),
  ],
);

export const productVersionNotices = pgTable(
  'product_version_notices',
  {
    versionId: bigint('version_id', { mode: 'number' })
      .notNull()
      .references(() => productVersions.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.userId] })],
);
