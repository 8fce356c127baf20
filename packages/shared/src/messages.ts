/**
 * The catalogue of the contract's messages: a stable key for each, and its English (SPEC: the
 * messages of the contract are English). The server answers a failure with the English in `message`
 * and `errors`, and with the key in `code` and `codes` (envelope.ts), so the web app puts a message
 * in the page's language by its key (the dictionaries' `errors.<key>`) and decides by it, never by
 * its English. A message not in the catalogue still works: it travels without a key, as it is.
 *
 * A message with values names them `{{field}}`; its key travels with them in query form, a
 * "coded message": `field.required?field=email`. A value that is itself a key is put in its words
 * too (`rate.retry_seconds?what=rate.attempts&n=30`).
 *
 * The schemas give a coded message as zod's message (`msg(...)`): the browser's form shows it in the
 * page's language, and the server's error handler turns it into English plus its code on the wire.
 */
export const MESSAGES = {
  // Answers the web app reacts to (SPEC §8 global reactions, step-up, offers' own words).
  'auth.email_not_verified': 'Your email address is not verified.',
  'account.blocked': 'Your account is blocked. Please contact support if you think this is a mistake.',
  'auth.step_up_totp': 'Please confirm it is you: enter a code from your authenticator app.',
  'auth.step_up_passkey': 'Please confirm it is you with your passkey.',
  'auth.step_up_password': 'Please confirm it is you: enter your password.',
  'request.csrf_mismatch': 'CSRF token mismatch. Reload the page and try again.',
  'request.rate_limited': 'Too many requests. Please slow down.',
  'request.not_found': 'The requested item was not found.',
  'request.moderators_only': 'This action is for moderators only.',
  'request.invalid': 'The given data was invalid.',
  'request.unprocessable': 'The request could not be processed.',
  'server.internal': 'Something went wrong on our side. Please try again later.',
  'payments.gateway_unavailable': 'The payout provider cannot be reached. Please try again in a few minutes.',

  // Rate limits: what was too much, then when to try again.
  'rate.requests': 'Too many requests.',
  'rate.attempts': 'Too many attempts.',
  'rate.sign_in': 'Too many failed sign-in attempts.',
  'rate.sign_up': 'Too many sign-ups from this address.',
  'rate.reset': 'Too many reset requests from this address.',
  'rate.retry_seconds': '{{what}} Please try again in {{n}} seconds.',
  'rate.retry_minutes': '{{what}} Please try again in {{n}} minutes.',

  // Sign-in, registration, password reset, phone.
  'auth.invalid_credentials': 'The e-mail or password is incorrect.',
  'auth.too_many_wrong_codes': 'Too many wrong codes. Please ask for a new one.',
  'auth.phone_verified': 'Your phone number is verified.',
  'auth.phone_verified_review': 'Your phone number is verified. Our team reviews new sellers within 1-2 business days.',
  'auth.reset_link_invalid': 'This reset link is invalid.',
  'auth.verification_link_invalid': 'This verification link is invalid.',
  'auth.code_format': 'Enter the 6-digit code.',
  'validation.email': 'Please enter a valid e-mail address.',
  'validation.phone': 'Please enter a valid phone number with its country code.',
  'validation.password_short': 'The password must be at least {{min}} characters long.',
  'validation.password_common': 'This password is too common. Please choose a less predictable one.',
  'validation.password_confirm': 'Please confirm the password.',
  'validation.passwords_differ': 'The passwords do not match.',
  'validation.terms': 'You must accept the terms and the privacy policy.',
  'validation.password_to_confirm': 'Please enter your password to confirm.',

  // Any field (fields.ts): `field` is the schema's English name of it.
  'field.required': 'The {{field}} field is required.',
  'field.required_short': 'The {{field}} is required.',
  'field.too_long': 'The {{field}} may have at most {{max}} characters.',
  'field.not_text': 'The {{field}} must be text.',
  'field.above_zero': 'The {{field}} must be above zero.',
  'field.nul': 'The {{field}} may not contain a NUL character.',

  // Contact and profile.
  'contact.name_required': 'Please enter your name.',
  'contact.message_required': 'Please write a message.',
  'contact.message_short': 'The message must have at least 10 characters.',
  'profile.rate_number': 'The hourly rate must be a number.',
  'profile.rate_negative': 'The hourly rate cannot be negative.',
  'profile.rate_max': 'The hourly rate may be at most 100000.',
  'profile.rate_decimals': 'The hourly rate may have at most 2 decimals.',
  'profile.nickname_format': 'The nickname may use 3-30 letters, digits, dots, dashes and underscores.',
  'profile.about_me_long': 'About me may have at most 2000 characters.',

  // The storefront editor (issue 34).
  'storefront.link_https': 'Please enter a full https:// address, such as https://example.com.',
  'storefront.link_required': 'Please enter the link address.',
  'storefront.own_works_only': 'Only your own listed works can be featured.',
  'storefront.max_featured': 'A storefront may feature at most {{max}} works.',
  'storefront.max_links': 'A storefront may have at most {{max}} links.',
  'storefront.featured_once': 'Each work may be featured only once.',
  'storefront.banner_too_large': 'The banner may be at most 5 MB.',

  // The statement's descriptions of movements (server features/ledger/statement.ts). `discount` is
  // empty or the order's discount in brackets, with its leading space.
  'statement.deposit': 'Funds added by card',
  'statement.purchase': 'Purchase{{discount}}',
  'statement.purchase_of': 'Purchase: {{title}}{{discount}}',
  'statement.sale': 'Sale of your work{{discount}}',
  'statement.sale_of': 'Sale: {{title}}{{discount}}',
  'statement.chat_unlock': 'Image unlocked in a chat',
  'statement.chat_sale': 'Image sold in a chat',
  'statement.refund': 'Refund',
  'statement.refund_of': 'Refund: {{title}}',
  'statement.generation_refund': 'Refund of an image generation',
  'statement.generation': 'Image generation',
  'statement.deposit_refund': 'Card payment refunded by the card issuer',
  'statement.chargeback_hold': 'Card payment disputed: amount on hold',
  'statement.chargeback_release': 'Dispute closed: amount released',
  'statement.earnings_release': 'Earnings released',
  'statement.earnings_hold': 'On hold for a refund request',
  'statement.earnings_unhold': 'Refund request closed: hold released',
  'statement.withdrawal': 'Withdrawal',
  'statement.withdrawal_return': 'Withdrawal returned',
  'statement.debt_paid': 'Debt paid from earnings',
  'statement.adjustment': 'Adjustment',
  'statement.adjustment_note': 'Adjustment: {{note}}',
} as const;

export type MessageKey = keyof typeof MESSAGES;
export type MessageValues = Record<string, string | number>;

export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value);
}

/** A coded message: the key, and its values in query form after `?` (see above). */
export function msg(key: MessageKey, values?: MessageValues): string {
  if (!values) return key;
  const query = new URLSearchParams(Object.entries(values).map(([name, value]): [string, string] => [name, String(value)]));
  return `${key}?${query}`;
}

/** The key and values of a coded message, or null for any other text (a message outside the catalogue). */
export function parseMessage(text: string): { key: MessageKey; values: Record<string, string> } | null {
  const at = text.indexOf('?');
  const key = at < 0 ? text : text.slice(0, at);
  if (!isMessageKey(key)) return null;
  return { key, values: at < 0 ? {} : Object.fromEntries(new URLSearchParams(text.slice(at + 1))) };
}

/** Fills `{{name}}` placeholders; a value that is itself a coded message is put in words by `words`. */
export function fillMessage(template: string, values: Record<string, string>, words: (coded: string) => string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name] ?? '';
    return parseMessage(value) ? words(value) : value;
  });
}

/** The English of a coded message; any other text comes back as it is. */
export function messageText(text: string): string {
  const parsed = parseMessage(text);
  return parsed ? fillMessage(MESSAGES[parsed.key], parsed.values, messageText) : text;
}

/** The English of a key with its values, for code that needs the text itself (mail, logs, a success message). */
export const englishOf = (key: MessageKey, values?: MessageValues) => messageText(msg(key, values));
