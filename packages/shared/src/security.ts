import { z } from 'zod';
import { okEnvelope, okMessage } from './envelope';
import { text } from './fields';

/**
 * Account security (issue 21): sessions, two-factor sign-in (TOTP) and step-up.
 *
 * Step-up: a call that changes payout details, the e-mail, the password, or turns 2FA off answers
 * 403 with `errors.step_up` (STEP_UP_FIELD) when the user has a second factor that was not proved in
 * the last 10 minutes; the web opens the step-up dialog, posts the code to /api/user/step-up and retries.
 */

/** A 6-digit code from an authenticator app (spaces allowed, as apps show "123 456"). */
const totpCode = text('code')
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** A recovery code as printed: ten letters and digits in two groups ("abcde-12345"). */
const recoveryCode = text('recovery code')
  .transform((v) => v.trim().toLowerCase().replace(/\s+/g, ''))
  .pipe(z.string().regex(/^[a-z0-9]{5}-?[a-z0-9]{5}$/, 'Enter one of your recovery codes, like abcde-12345.'));

/** One signed-in browser of the account. `ip_hint` is coarse ("203.0.113.x"), never the full address. */
export const userSession = z.object({
  id: z.string(),
  current: z.boolean(),
  browser: z.string(),
  os: z.string(),
  /** Issue 31: from the User-Agent, so a phone reads as a phone. */
  device: z.enum(['phone', 'tablet', 'computer']),
  created_at: z.string(),
  last_seen_at: z.string(),
  ip_hint: z.string(),
  /** This session proved a second factor (a TOTP or recovery code, or a passkey) at sign-in or since. */
  second_factor: z.boolean(),
});
export type UserSession = z.infer<typeof userSession>;
export const userSessionsAnswer = okEnvelope(z.array(userSession));
export const sessionIdParams = z.object({
  id: text('session id').regex(/^[a-f0-9]{24}$/, 'This session does not exist.'),
});

/** What the Security tab shows about the account's second factors. */
export const securityStatus = z.object({
  totp_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  /** The user holds a passkey, which can also answer a step-up. */
  has_passkey: z.boolean(),
  /** A second factor was proved in this session within STEP_UP_MINUTES. */
  second_factor_fresh: z.boolean(),
});
export type SecurityStatus = z.infer<typeof securityStatus>;
export const securityStatusAnswer = okEnvelope(securityStatus);

export const totpSetup = z.object({ secret: z.string(), otpauth_url: z.string(), qr_svg: z.string() });
export type TotpSetup = z.infer<typeof totpSetup>;
export const totpSetupAnswer = okEnvelope(totpSetup);

export const totpEnableInput = z.object({ code: totpCode });
export type TotpEnableInput = z.infer<typeof totpEnableInput>;
export const recoveryCodesAnswer = okEnvelope(z.object({ recovery_codes: z.array(z.string()) }));

/** Turning 2FA off: the password, and a current code (or a fresh step-up in this session). */
export const totpDisableInput = z.object({
  password: text('password').min(1, 'The password field is required.').max(200),
  code: totpCode.optional(),
});
export type TotpDisableInput = z.infer<typeof totpDisableInput>;

/** The second step of a sign-in with 2FA on: a code from the app, or one recovery code. */
export const loginTwoFactorInput = z
  .object({ code: totpCode.optional(), recovery_code: recoveryCode.optional() })
  .refine((v) => v.code !== undefined || v.recovery_code !== undefined, {
    path: ['code'],
    message: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  });
export type LoginTwoFactorInput = z.infer<typeof loginTwoFactorInput>;

/**
 * Proves it is you again for a sensitive change (issue 29): an app code or a recovery code, or, only
 * for an account that has no second factor, the current password. A passkey answers through the
 * passkey step-up calls instead.
 */
export const stepUpInput = z
  .object({
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
    password: text('password').min(1, 'The password field is required.').max(200).optional(),
  })
  .refine((v) => v.code !== undefined || v.recovery_code !== undefined || v.password !== undefined, {
    path: ['code'],
    message: 'Enter the 6-digit code from your authenticator app, a recovery code, or your password.',
  });
export type StepUpInput = z.infer<typeof stepUpInput>;

/** The ways an account can finish a password sign-in: only those it has set up. */
export const secondFactorMethod = z.enum(['totp', 'recovery_code', 'passkey']);
export type SecondFactorMethod = z.infer<typeof secondFactorMethod>;

/**
 * POST /login's answer: SPEC's `{status, message}`, plus `two_factor_required` and the account's
 * `methods` when the password was right but a second factor must follow before any session exists.
 */
/** A sign-in: done (a message), or a second factor is asked for (`payload` names the methods the account has). */
export const loginAnswer = okMessage.extend({
  payload: z.object({ two_factor_required: z.literal(true), methods: z.array(secondFactorMethod) }).optional(),
});
export type LoginAnswer = z.infer<typeof loginAnswer>;
