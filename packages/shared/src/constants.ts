/** Business constants of SPEC §9, shared by server and web. */
export const CATALOG_PAGE_SIZE = 6;
export const CATALOG_MAX_PAGE_SIZE = 48;
export const CATALOG_DEFAULT_SORT = 'id~desc';
export const RANDOM_PRODUCTS_DEFAULT = 9;
export const RANDOM_PRODUCTS_PER_TYPE = 10;

export const TOAST_DURATION_MS = { success: 3000, info: 3000, warning: 3000, error: 4000 } as const;
export const TOAST_COLORS = { success: '#62F0A6', error: '#E94356', warning: '#F79E1B', info: '#00DAC9' } as const;
export const TOAST_WIDTH_PX = 380;

export const DEPOSIT_POLL_MS = 5000;
export const CHAT_POLL_MS = 5000;
export const CATALOG_DEBOUNCE_MS = 500;
export const PROCESSING_REDIRECT_MS = 3000;
export const PAYMENT_WIDGET_TIMEOUT_MS = 7000;

export const OFFER_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** SPEC §5 says 5 for a password change; every new password needs 8 here, on purpose (README). */
export const MIN_NEW_PASSWORD_LENGTH = 8;

export const SESSION_IDLE_SECONDS = 2 * 60 * 60;
export const CONSENT_COOKIE_NAME = 'cookie_consent';
export const SELECTED_CURRENCY_KEY = 'selectedCurrency';
export const MOBILE_BREAKPOINT_PX = 768;

export const CARD_TAGLINES = ['Personal & commercial use', 'PNG, 3840x2160', '4K JPG + usage rights'] as const;

export const PRODUCT_TYPES = ['image', 'doc', 'prompt', 'pack'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** SPEC §9: the first path segment of a category url gives the product type. */
export const CATEGORY_SEGMENT_TO_TYPE: Record<string, ProductType> = {
  images: 'image',
  texts: 'doc',
  prompts: 'prompt',
};

export function typeFromCategoryUrl(url: string): ProductType | undefined {
  const segment = url.replace(/^\/+/, '').split('/')[0] ?? '';
  return CATEGORY_SEGMENT_TO_TYPE[segment];
}

/** SPEC §9 (here, not in chat.ts, so the header's bell needs no schema code): the unread badge shows 9+ above 9. */
export const UNREAD_BADGE_CAP = 9;
export const formatUnreadBadge = (count: number): string => (count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(count));

/**
 * Step-up (issue 21): a sensitive change by a user with a second factor not proved in the last
 * STEP_UP_MINUTES answers 403 with a message under `errors[STEP_UP_FIELD]`; the web asks for a code.
 */
export const STEP_UP_FIELD = 'step_up';
export const STEP_UP_MINUTES = 10;

/** The orders of a product's reviews (GET /api/products/{id}/reviews?sort=). */
export const REVIEW_SORTS = ['newest', 'highest', 'lowest'] as const;

/** A card payment not completed within this many minutes expires (the server's job; the history shows it so at once). */
export const DEPOSIT_EXPIRY_MINUTES = 30;
