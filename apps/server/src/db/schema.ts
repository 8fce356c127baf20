/**
 * The database schema, one import for every table. The core tables (users, products, categories and
 * the rest the first migrations made) live in core-schema.ts; each later feature's tables in their own
 * file, which imports the core tables it refers to from core-schema.ts, never from this barrel, so
 * no schema file imports itself through here (dependency-cruiser's no-circular, issue 31).
 */

export * from './analytics-schema';
export * from './audit-schema';
export * from './bundles-schema';
export * from './chat-schema';
export * from './commerce-schema';
export * from './core-schema';
export * from './discounts-schema';
export * from './offers-schema';
export * from './passkeys-schema';
export * from './refunds-schema';
export * from './reports-schema';
export * from './security-schema';
export * from './storefronts-schema';
export * from './tax-schema';
export * from './trust-schema';
export * from './versions-schema';
