import { z } from 'zod';
import { isCommonPassword } from './common-passwords';
import { MIN_NEW_PASSWORD_LENGTH } from './constants';
import { okEnvelope } from './envelope';
import { idParam, requiredText, slugOrIdParam, text } from './fields';
import { msg } from './messages';

/**
 * The floor for any new password (ASVS L2 asks for at least 8): one rule for register, reset and
 * change alike, stronger than SPEC §5's 5 characters for a change, on purpose (see README).
 */
export const SERVER_MIN_PASSWORD_LENGTH = MIN_NEW_PASSWORD_LENGTH;

/** Why a new password is refused, or null: too short, or on the list of common passwords. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < SERVER_MIN_PASSWORD_LENGTH) return msg('validation.password_short', { min: SERVER_MIN_PASSWORD_LENGTH });
  if (isCommonPassword(password)) return msg('validation.password_common');
  return null;
}

/**
 * A phone as the browser can check it without the numbering plan: only digits and the usual
 * separators, and 7 to 15 digits in all (E.164's longest; the shortest numbers in use have 7), so
 * a country code alone ("+351") is refused before it is sent. The server checks the plan itself.
 */
export function phoneProblem(value: string): string | null {
  const digits = value.replace(/\D/g, '').length;
  // The server's own words for a number it cannot use.
  if (!/^\+?[\d\s().-]*$/.test(value) || digits < 7 || digits > 15) return msg('validation.phone');
  return null;
}

const phoneRule = (value: string, ctx: z.core.$RefinementCtx<string>) => {
  const problem = value ? phoneProblem(value) : null;
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/** A cross-field check runs whenever the input is an object, not only once every field passed. */
const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;

/** A new password field: required, then the one rule above, checked in the browser as on the server. */
const newPassword = (label: string) =>
  text(label, required(label))
    .min(1, `The ${label} field is required.`)
    .max(200, `The ${label} may have at most 200 characters.`)
    .superRefine((value, ctx) => {
      const problem = value ? newPasswordProblem(value) : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const required = (label: string) => ({ error: msg('field.required', { field: label }) });
const email = text('email', required('email'))
  .trim()
  .min(1, required('email').error)
  .max(254, msg('field.too_long', { field: 'email', max: 254 }))
  .pipe(z.email({ error: msg('validation.email') }));

/** What anyone may see of a user: no e-mail, no phone. */
const profileBase = z.object({
  id: z.number().int(),
  name: z.string(),
  surname: z.string(),
  nickname: z.string(),
  about_me: z.string(),
  /** Euros per hour, 2 decimals. */
  hourly_rate: z.number(),
  /** Public URL of the 150x150 avatar, or null. */
  avatar_path: z.string().nullable(),
  avatar_url_large: z.string().nullable(),
  created_at: z.number().int(),
});

/** SPEC §3 user profile: the whole body of GET /api/user/profile is stored by the client. */
export const userProfile = profileBase.extend({
  email: z.string(),
  phone: z.string(),
  contact_info: z.object({ phone: z.string() }),
  is_email_verified: z.boolean(),
  is_phone_verified: z.boolean(),
  role: z.enum(['user', 'admin']),
  /** The country stated for VAT (issue 33, `PUT /api/user/tax-country`) and a business's VAT number. */
  tax_country: z.string().nullable().optional(),
  vat_number: z.string().nullable().optional(),
});
export type UserProfile = z.infer<typeof userProfile>;

/** One of the user's own prompts, as GET /api/user/prompts lists them. */
export const userPromptSummary = z.object({ id: z.number().int(), slug: z.string(), title: z.string(), created_at: z.number().int() });
export type UserPromptSummary = z.infer<typeof userPromptSummary>;

export const publicProfile = profileBase.extend({
  products_count: z.number().int(),
  /** The average over all the creator's reviewed works, one decimal (0 without reviews), and how many reviews. */
  rating_average: z.number(),
  rating_count: z.number().int(),
  followers_count: z.number().int(),
  /** Whether the signed-in reader follows this creator (false for a guest). */
  following: z.boolean(),
});

/** GET /api/user/public-profile/{id}: a creator by nickname or id. */
export const publicProfileParams = z.object({ id: slugOrIdParam('profile', 60) });
export type PublicProfile = z.infer<typeof publicProfile>;

export const isAuthAnswer = okEnvelope(z.object({ authenticated: z.boolean() }));
export type IsAuthAnswer = z.infer<typeof isAuthAnswer>;

/** SPEC §3 login payload: `username` holds the e-mail. */
export const loginInput = z.object({
  username: email,
  password: text('password', required('password')).min(1, required('password').error).max(200),
});
export type LoginInput = z.infer<typeof loginInput>;

/** SPEC §3 registration payload; field names are the ones SPEC §5 shows errors under. */
export const registerInput = z
  .object({
    name: requiredText('name'),
    surname: requiredText('surname'),
    email,
    phone: text('phone', required('phone'))
      .trim()
      .min(1, required('phone').error)
      .max(25, msg('field.too_long', { field: 'phone', max: 25 }))
      .superRefine(phoneRule),
    password: newPassword('password'),
    passConfirm: text('password confirmation', required('password confirmation')).min(1, msg('validation.password_confirm')).max(200),
    terms_agreed: z.literal(true, { error: msg('validation.terms') }),
  })
  // Checked even while another field (the terms box) is still wrong, so a mismatch shows at once.
  .refine((v) => !v.password || !v.passConfirm || v.password === v.passConfirm, {
    path: ['passConfirm'],
    message: msg('validation.passwords_differ'),
    when: isObject,
  });
export type RegisterInput = z.infer<typeof registerInput>;

/** SPEC §3 password change payload, with the client rules and texts of SPEC §5. */
export const changePasswordInput = z
  .object({
    cur_password: text('current password').max(200),
    new_password: text('new password').max(200),
    repeat_password: text('repeated password').max(200),
  })
  .superRefine((v, ctx) => {
    if (!v.cur_password || !v.new_password || !v.repeat_password) {
      ctx.addIssue({
        code: 'custom',
        path: [!v.cur_password ? 'cur_password' : !v.new_password ? 'new_password' : 'repeat_password'],
        message: 'Please fill in all password fields',
      });
      return;
    }
    if (v.new_password !== v.repeat_password) ctx.addIssue({ code: 'custom', path: ['repeat_password'], message: 'New passwords do not match' });
    else {
      const problem = newPasswordProblem(v.new_password);
      if (problem) ctx.addIssue({ code: 'custom', path: ['new_password'], message: problem });
    }
  });
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const updateProfileInput = z.object({
  name: requiredText('name'),
  surname: requiredText('surname'),
  email,
  phone: text('phone')
    .trim()
    .max(25, msg('field.too_long', { field: 'phone', max: 25 }))
    .superRefine(phoneRule),
  about_me: text('about me').trim().max(2000, msg('profile.about_me_long')).default(''),
  hourly_rate: z.coerce
    .number({ error: msg('profile.rate_number') })
    .min(0, msg('profile.rate_negative'))
    .max(100_000, msg('profile.rate_max'))
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, msg('profile.rate_decimals'))
    .default(0),
  nickname: text('nickname')
    .trim()
    .regex(/^[a-z0-9](?:[a-z0-9._-]{1,28}[a-z0-9])$/i, msg('profile.nickname_format'))
    .optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const forgotPasswordInput = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

export const resetPasswordInput = z
  .object({
    email,
    token: text('token').min(10, msg('auth.reset_link_invalid')).max(200),
    password: newPassword('password'),
    password_confirmation: text('password confirmation').min(1, msg('validation.password_confirm')).max(200),
  })
  .refine((v) => !v.password || !v.password_confirmation || v.password === v.password_confirmation, {
    path: ['password_confirmation'],
    message: msg('validation.passwords_differ'),
    when: isObject,
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const deleteAccountInput = z.object({ password: text('password').min(1, msg('validation.password_to_confirm')).max(200) });
export type DeleteAccountInput = z.infer<typeof deleteAccountInput>;

/** The path of an e-mail verification link: the user's id and the hash of the address. */
export const verifyEmailParams = z.object({
  id: idParam('user id'),
  hash: text('hash').regex(/^[a-f0-9]{40}$/, 'This verification link is invalid.'),
});

export const verifyEmailQuery = z.object({
  expires: z.coerce.number({ error: msg('auth.verification_link_invalid') }).int(msg('auth.verification_link_invalid')),
  signature: text('signature').regex(/^[a-f0-9]{64}$/, 'This verification link is invalid.'),
});

export const verifyPhoneInput = z.object({
  code: text('code')
    .trim()
    .regex(/^\d{6}$/, msg('auth.code_format')),
});

export const emailVerifyResult = z.object({ status: z.literal('OK'), message: z.string(), payload: z.object({ already_verified: z.boolean() }) });
