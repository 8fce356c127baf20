import {
  emailVerifyResult,
  forgotPasswordInput,
  isAuthAnswer,
  loginInput,
  okMessage,
  registerInput,
  resetPasswordInput,
  verifyEmailParams,
  verifyEmailQuery,
  verifyPhoneInput,
} from '@atelier/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { users } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { requireUser, requireVerifiedUser } from '../../lib/auth-guard';
import { mailHtml, sendMail } from '../../lib/mail';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { assertUnderLimit, clearRateLimit, enforceRateLimit, hitRateLimit } from '../../lib/rate-limit';
import { endUserSessions, isSignedIn, startSession } from '../../lib/session';
import { getSettings } from '../site/site.queries';
import {
  checkEmailVerification,
  checkPhoneCode,
  consumeResetToken,
  createPhoneCode,
  createResetToken,
  EMAIL_LINK_MINUTES,
  emailVerificationPath,
  findUserByEmail,
  findUserById,
  generateNickname,
  isEmailTaken,
  normalizePhone,
  PHONE_CODE_MINUTES,
  passwordProblem,
  RESET_MINUTES,
  type UserRow,
} from './auth.queries';

/** Login failures allowed per account and per address in one window (ASVS 2.2.1). */
const LOGIN_FAILURES = { limit: 5, windowSeconds: 60 };
/** A dummy hash, so an unknown e-mail costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;

export async function sendVerificationMail(app: FastifyInstance, user: UserRow) {
  const url = app.config.publicUrl + emailVerificationPath(app.config.sessionSecret, user);
  await sendMail(app, {
    to: user.email,
    subject: 'Confirm your e-mail address',
    text: `Hello ${user.name},\n\nPlease confirm your e-mail address for Atelier by opening this link within ${EMAIL_LINK_MINUTES} minutes:\n${url}\n\nIf you did not create an account, ignore this message.`,
    html: mailHtml([`Hello ${user.name},`, `Please confirm your e-mail address for Atelier within ${EMAIL_LINK_MINUTES} minutes.`], {
      label: 'Confirm e-mail',
      url,
    }),
  });
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/is-auth', { schema: { tags: ['auth'], response: { 200: isAuthAnswer } } }, async (request) => ({
    status: 'OK' as const,
    authenticated: isSignedIn(request),
  }));

  app.post('/register', { schema: { tags: ['auth'], body: registerInput, response: { 200: okMessage } } }, async (request, reply) => {
    const settings = await getSettings(app.db);
    if (!settings.is_reg_enabled) throw new AppError('FORBIDDEN', 'Registration is currently closed. Please try again later.');
    await enforceRateLimit(app.db, `register:${request.ip}`, { limit: 10, windowSeconds: 3600 }, 'Too many sign-ups from this address.');
    const body = request.body;
    const fields: Record<string, string> = {};
    const phone = normalizePhone(body.phone);
    if (!phone) fields.phone = 'Please enter a valid phone number with its country code.';
    const weak = passwordProblem(body.password, body.email);
    if (weak) fields.password = weak;
    if (await isEmailTaken(app.db, body.email)) fields.email = 'An account with this e-mail already exists.';
    if (Object.keys(fields).length) throw validationError(fields);

    const passwordHash = await hashPassword(body.password);
    const nickname = await generateNickname(app.db, body.name, body.surname);
    let user: UserRow;
    try {
      [user] = (await app.db
        .insert(users)
        .values({ email: body.email, passwordHash, name: body.name, surname: body.surname, nickname, phone: phone! })
        .returning()) as [UserRow];
    } catch (err) {
      // Two sign-ups with one e-mail at the same moment: the unique index decides.
      if ((err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505') {
        throw validationError({ email: 'An account with this e-mail already exists.' });
      }
      throw err;
    }
    await startSession(request, reply, user.id);
    await sendVerificationMail(app, user);
    request.log.info({ userId: user.id }, 'user registered');
    return { status: 'OK' as const, message: 'Welcome to Atelier! We have sent you a link to confirm your e-mail address.' };
  });

  app.post('/login', { schema: { tags: ['auth'], body: loginInput, response: { 200: okMessage } } }, async (request, reply) => {
    const { username, password } = request.body;
    const accountKey = `login:account:${username.toLowerCase()}`;
    const ipKey = `login:ip:${request.ip}`;
    const tooMany = 'Too many failed sign-in attempts.';
    await assertUnderLimit(app.db, accountKey, LOGIN_FAILURES.limit, tooMany);
    await assertUnderLimit(app.db, ipKey, LOGIN_FAILURES.limit * 4, tooMany);
    const user = await findUserByEmail(app.db, username);
    dummyHash ??= hashPassword('dummy-password-for-timing');
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
    if (!user || !valid) {
      await hitRateLimit(app.db, accountKey, LOGIN_FAILURES.windowSeconds);
      await hitRateLimit(app.db, ipKey, LOGIN_FAILURES.windowSeconds);
      request.log.info({ event: 'login_failed' }, 'login failed');
      throw validationError({ username: 'These credentials do not match our records.' }, 'The e-mail or password is incorrect.');
    }
    await clearRateLimit(app.db, accountKey);
    await startSession(request, reply, user.id);
    request.log.info({ userId: user.id }, 'user signed in');
    return { status: 'OK' as const, message: `Welcome back, ${user.name}!` };
  });

  app.post('/logout', { schema: { tags: ['auth'], response: { 200: okMessage } } }, async (request, reply) => {
    // Destroys the session row and hands out a fresh anonymous one (new id, new CSRF token).
    await startSession(request, reply, null);
    return { status: 'OK' as const, message: 'You have been logged out.' };
  });

  app.get(
    '/email/verify/:id/:hash',
    {
      schema: {
        tags: ['auth'],
        params: verifyEmailParams,
        querystring: verifyEmailQuery,
        response: { 200: emailVerifyResult },
      },
    },
    async (request) => {
      const user = await findUserById(app.db, request.params.id);
      const check = checkEmailVerification(app.config.sessionSecret, user, request.params.hash, request.query.expires, request.query.signature);
      if (check === 'invalid' || user?.deletedAt) throw new AppError('FORBIDDEN', 'This verification link is invalid. Please ask for a new one.');
      if (user!.emailVerifiedAt) return { status: 'OK' as const, message: 'Your e-mail address is already verified.', payload: { already_verified: true } };
      if (check === 'expired') throw new AppError('FORBIDDEN', 'This verification link has expired. Please ask for a new one.');
      await app.db.update(users).set({ emailVerifiedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, user!.id));
      return { status: 'OK' as const, message: 'Your e-mail address is verified.', payload: { already_verified: false } };
    },
  );

  app.post('/email/verify/resend', { schema: { tags: ['auth'], response: { 200: okMessage } } }, async (request) => {
    const user = await findUserById(app.db, requireUser(request));
    if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue.');
    if (user.emailVerifiedAt) return { status: 'OK' as const, message: 'Your e-mail address is already verified.' };
    await enforceRateLimit(app.db, `verify-resend:${user.id}`, { limit: 3, windowSeconds: 600 }, 'We have sent several links already.');
    await sendVerificationMail(app, user);
    return { status: 'OK' as const, message: `We have sent a new link to ${user.email}.` };
  });

  const resetSent = 'If an account exists for that e-mail, we have sent a link to reset the password. Check your inbox.';

  app.post('/user/reset-password', { schema: { tags: ['auth'], body: forgotPasswordInput, response: { 200: okMessage } } }, async (request) => {
    const { email } = request.body;
    await enforceRateLimit(app.db, `reset:ip:${request.ip}`, { limit: 10, windowSeconds: 3600 }, 'Too many reset requests from this address.');
    const user = await findUserByEmail(app.db, email);
    // The same answer whether or not the account exists; an account gets at most 3 mails an hour.
    if (user) {
      const { count } = await hitRateLimit(app.db, `reset:account:${user.id}`, 3600);
      if (count <= 3) {
        const token = await createResetToken(app.db, user.id);
        const url = `${app.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
        await sendMail(app, {
          to: user.email,
          subject: 'Reset your Atelier password',
          text: `Hello ${user.name},\n\nOpen this link within ${RESET_MINUTES} minutes to choose a new password:\n${url}\n\nThe link works once. If you did not ask for it, ignore this message: your password stays as it is.`,
          html: mailHtml([`Hello ${user.name},`, `Open this link within ${RESET_MINUTES} minutes to choose a new password. It works once.`], {
            label: 'Choose a new password',
            url,
          }),
        });
      }
    }
    return { status: 'OK' as const, message: resetSent };
  });

  app.post('/reset-password', { schema: { tags: ['auth'], body: resetPasswordInput, response: { 200: okMessage } } }, async (request) => {
    const { email, token, password } = request.body;
    await enforceRateLimit(app.db, `reset-complete:ip:${request.ip}`, { limit: 20, windowSeconds: 3600 }, 'Too many attempts.');
    const invalid = () => validationError({ token: 'This reset link is invalid or has expired. Please ask for a new one.' });
    const user = await findUserByEmail(app.db, email);
    if (!user) throw invalid();
    const weak = passwordProblem(password, user.email);
    if (weak) throw validationError({ password: weak });
    if (!(await consumeResetToken(app.db, user.id, token))) throw invalid();
    await app.db
      .update(users)
      .set({ passwordHash: await hashPassword(password), updatedAt: new Date() })
      .where(eq(users.id, user.id));
    await endUserSessions(app.db, user.id);
    return { status: 'OK' as const, message: 'Your password has been changed. You can sign in with it now.' };
  });

  app.post('/verification/phone/send', { schema: { tags: ['auth'], response: { 200: okMessage } } }, async (request) => {
    const user = await requireVerifiedUser(request);
    if (!user.phone) throw validationError({ phone: 'Add a phone number to your profile first.' });
    if (user.phoneVerifiedAt) return { status: 'OK' as const, message: 'Your phone number is already verified.' };
    await enforceRateLimit(app.db, `phone-code:${user.id}`, { limit: 3, windowSeconds: 900 }, 'We have sent several codes already.');
    const code = await createPhoneCode(app.db, app.config.sessionSecret, user.id);
    // Text messages go through the same outbox; an SMS gateway plugs in here for real use.
    await sendMail(app, {
      to: user.phone,
      subject: 'SMS: Atelier verification code',
      text: `Your Atelier verification code is ${code}. It expires in ${PHONE_CODE_MINUTES} minutes.`,
    });
    const masked = `${user.phone.slice(0, 4)}•••${user.phone.slice(-2)}`;
    return { status: 'OK' as const, message: `We have sent a 6-digit code to ${masked}.` };
  });

  app.post('/verification/phone/verify', { schema: { tags: ['auth'], body: verifyPhoneInput, response: { 200: okMessage } } }, async (request) => {
    const userId = (await requireVerifiedUser(request)).id;
    const result = await checkPhoneCode(app.db, app.config.sessionSecret, userId, request.body.code);
    const messages = {
      wrong: 'This code is not correct. Please check it and try again.',
      expired: 'This code has expired. Please ask for a new one.',
      none: 'Please ask for a code first.',
      locked: 'Too many wrong codes. Please ask for a new one.',
    } as const;
    if (result !== 'ok') throw validationError({ code: messages[result] });
    await app.db.update(users).set({ phoneVerifiedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
    return { status: 'OK' as const, message: 'Your phone number is verified. Our team reviews new sellers within 1-2 business days.' };
  });
};
