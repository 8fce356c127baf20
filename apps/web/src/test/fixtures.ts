import type { Order, OrderItem, ProductBase, ProductDetails, PublicSiteSettings, RefundRequest, UserProfileWithBalance } from '@atelier/shared';

/**
 * Whole answers as the server sends them, for fixtures: a test names only what it is about and
 * takes the rest from here; fakeApi holds every answer to the OpenAPI document (contract-check.ts).
 */

/** GET /api/settings: registration open, no e-mail check, no image generation, payouts by card and SEPA. */
export function siteSettings(over: Partial<PublicSiteSettings> = {}): PublicSiteSettings {
  return {
    is_reg_enabled: true,
    is_email_verification_enabled: false,
    internal_currency_name: 'Atelier Credits',
    formats: [],
    sizes: [],
    google_tag: '',
    requisites: '',
    support_email: '',
    copyright: '',
    test_mode: false,
    payout_methods: ['card', 'sepa'],
    image_generation: 'off',
    generation_price: 1,
    commission_percent: 20,
    withdrawal_min: 10,
    ...over,
  };
}

/** GET /api/user/profile: a signed-in user with a balance of 0 €. */
export function aProfile(over: Partial<UserProfileWithBalance> = {}): UserProfileWithBalance {
  return {
    id: 3,
    name: 'Ines',
    surname: 'Costa',
    nickname: 'ines',
    about_me: '',
    hourly_rate: 0,
    avatar_path: null,
    avatar_url_large: null,
    created_at: 1_767_225_600,
    email: 'ines@example.com',
    phone: '',
    contact_info: { phone: '' },
    is_email_verified: true,
    is_phone_verified: false,
    role: 'user',
    balance: { amount: 0, currency: 'EUR', currencySymbol: '€', amount_minor: 0 },
    ...over,
  };
}

/** A catalogue card (productBase): an image by @sofia for 10 €. */
export function aProduct(over: Partial<ProductBase> = {}): ProductBase {
  return {
    id: 7,
    slug: 'aurora',
    title: 'Aurora',
    description: '',
    author: 'Sofia Reis',
    authorNickname: 'sofia',
    authorAvatarUrl: null,
    product_type: 'image',
    category_id: null,
    doc_url: null,
    imageUrl: null,
    imageSrcSet: null,
    file_type: null,
    tags: [],
    price: 10,
    currency: 'EUR',
    currencySymbol: '€',
    created_at: 1_767_225_600,
    rating_average: 0,
    rating_count: 0,
    ...over,
  };
}

/** A product page's answer (issue 31 item 7): a product with its sales and file; unsold, no file by default. */
export function aProductDetails(over: Partial<ProductDetails> = {}): ProductDetails {
  return { ...aProduct(), sales_count: 0, file: null, ...over };
}

/** One item of an order: an image by @sofia. */
export function anOrderItem(over: Partial<OrderItem> & { info?: Partial<OrderItem['info']> } = {}): OrderItem {
  const { info, ...rest } = over;
  return {
    price: 10,
    product_type: 'image',
    seller: { nickname: info?.authorNickname ?? 'sofia' },
    ...rest,
    info: {
      id: 7,
      title: 'Aurora',
      doc_url: null,
      doc_url_orig: '/api/user/media/download?id=1&product_id=7',
      tags: [],
      authorNickname: 'sofia',
      image_prompt: false,
      ...info,
    },
  };
}

/** An order (GET /api/purchase/history, the answer of a purchase): paid in EUR, successful. */
export function anOrder(over: Partial<Order> = {}): Order {
  return {
    id: 1,
    title: 'Aurora',
    amount: 10,
    currencyCode: 'EUR',
    today: null,
    status: 'Success',
    product_type: 'image',
    created_at: 1_767_225_600,
    items: [anOrderItem()],
    ...over,
  };
}

/** A refund request as the buyer sees it: Ana's file does not open, and Sofia, the creator, has answered. */
export function aRefundRequest(over: Partial<RefundRequest> = {}): RefundRequest {
  return {
    id: 31,
    status: 'responded',
    reason: 'broken_file',
    role: 'buyer',
    order_id: 2,
    product_id: 6,
    unlock_message_id: null,
    chat_id: null,
    title: 'Logo Ideas',
    amount: { amount: 4, currency: 'EUR', currencySymbol: '€', amount_minor: 400 },
    buyer: { id: 1, nickname: 'ana' },
    creator: { id: 2, nickname: 'sofia' },
    messages: [
      { from: 'buyer', text: 'The file does not open.', created_at: 1_790_000_000 },
      { from: 'creator', text: 'It opens for me.', created_at: 1_790_000_100 },
    ],
    created_at: 1_790_000_000,
    resolved_at: null,
    ...over,
  };
}
