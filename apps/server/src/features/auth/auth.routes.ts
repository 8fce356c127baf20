import {
  emailVerifyResult,
  englishOf,
  forgotPasswordInput,
  isAuthAnswer,
  loginAnswer,
  loginInput,
  loginTwoFactorInput,
  msg,
  okMessage,
  registerInput,
  resetPasswordInput,
  verifyEmailParams,
  verifyEmailQuery,
  verifyPhoneInput,
} from '@atelier/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { offers, products, users } from '../../db/schema';
import { AppError, validationError } from '../../lib/app-error';
import { ACCOUNT_BLOCKED, currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { mailHtml, sendMail } from '../../lib/mail';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { isUniqueViolation } from '../../lib/pg-errors';
import { clearRateLimit, enforceRateLimit, hitRateLimit, releaseRateLimitHit } from '../../lib/rate-limit';
import { isSignedIn, startSession } from '../../lib/session';
import { revokeOtherSessions, secondFactorMethods, verifySecondFactor } from '../security';
import {
  checkEmailVerification,
  findUserByEmail,
  findUserById,
  generateNickname,
  isEmailTaken,
  normalizePhone,
  passwordProblem,
  sendVerificationMail,
  type UserRow,
} from '../users';
import { checkPhoneCode, consumeResetToken, createPhoneCode, createResetToken, PHONE_CODE_MINUTES, RESET_MINUTES } from './auth.queries';
import { clearPendingSignIn, finishSignIn, knownDevice, pendingSignIn, rememberDevice, setPendingSignIn } from './sign-in';

/** Sign-in attempts allowed in one window (ASVS 2.2.1): per account from one address, per address, per account. */
const LOGIN_PER_ACCOUNT_AND_ADDRESS = { limit: 5, windowSeconds: 60 };
const LOGIN_PER_ADDRESS = { limit: 20, windowSeconds: 60 };
const LOGIN_PER_ACCOUNT = { limit: 5, windowSeconds: 60 };
/** Every reset request is answered after this long, whatever it found (longer than the work takes). */
const RESET_ANSWER_MS = 400;

/** A dummy hash, so an unknown e-mail costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/is-auth', { schema: { tags: ['auth'], response: { 200: isAuthAnswer } } }, async (request) => ok({ authenticated: isSignedIn(request) }));

  app.post('/register', { schema: { tags: ['auth'], body: registerInput, response: { 200: okMessage } } }, async (request, reply) => {
    // A second account must not silently replace the one this browser is signed in with.
    const signedIn = request.session?.userId != null ? await findUserById(app.db, request.session.userId) : undefined;
    if (signedIn && !signedIn.deletedAt) throw new AppError('CONFLICT', `You are signed in as ${signedIn.email}. Log out first to create another account.`);
    const settings = await app.settings.get();
    if (!settings.is_reg_enabled) throw new AppError('FORBIDDEN', 'Registration is currently closed. Please try again later.');
    await enforceRateLimit(app.db, `register:${request.ip}`, { limit: 10, windowSeconds: 3600 }, msg('rate.sign_up'));
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
      // The account and its verification mail commit together (the mail is delivered after commit).
      user = await app.db.transaction(async (tx) => {
        const [created] = (await tx
          .insert(users)
          .values({ email: body.email, passwordHash, name: body.name, surname: body.surname, nickname, phone: phone! })
          .returning()) as [UserRow];
        await sendVerificationMail(app, created, tx);
        return created;
      });
    } catch (err) {
      // Two sign-ups with one e-mail at the same moment: the unique index decides.
      if (isUniqueViolation(err)) {
        throw validationError({ email: 'An account with this e-mail already exists.' });
      }
      throw err;
    }
    await startSession(request, reply, user.id);
    // The browser that made the account is one it has used: signing in here again sends no alert.
    rememberDevice(app, reply, user.email.toLowerCase());
    request.log.info({ userId: user.id }, 'user registered');
    return { status: 'OK' as const, message: 'Welcome to Atelier! We have sent you a link to confirm your e-mail address.' };
  });

  app.post('/login', { schema: { tags: ['auth'], body: loginInput, response: { 200: loginAnswer } } }, async (request, reply) => {
    const { username, password } = request.body;
    const email = username.toLowerCase();
    const tooMany = msg('rate.sign_in');
    // Each attempt is counted before the password is checked, in one atomic statement per key, so
    // parallel guesses cannot slip past: the 6th concurrent guess at an account is refused unchecked.
    const device = knownDevice(request, email);
    await enforceRateLimit(app.db, `login:ip:${request.ip}`, LOGIN_PER_ADDRESS, tooMany);
    await enforceRateLimit(app.db, `login:account-ip:${email}:${request.ip}`, LOGIN_PER_ACCOUNT_AND_ADDRESS, tooMany);
    // The account-wide limit stops a spread-out attack, but a browser the owner signed in with
    // before is not subject to it, so a stranger cannot lock the owner out.
    if (!device) await enforceRateLimit(app.db, `login:account:${email}`, LOGIN_PER_ACCOUNT, tooMany);
    const user = await findUserByEmail(app.db, username);
    dummyHash ??= hashPassword('dummy-password-for-timing');
    const valid = await verifyPassword(user?.passwordHash ?? (await dummyHash), password);
    if (!user || !valid) {
      request.log.info({ event: 'login_failed' }, 'login failed');
      const incorrect = msg('auth.invalid_credentials');
      throw validationError({ username: incorrect }, incorrect);
    }
    // The right password is no failed attempt: its hits are taken back (six sign-ins in a minute are fine).
    await clearRateLimit(app.db, `login:account-ip:${email}:${request.ip}`);
    await releaseRateLimitHit(app.db, device ? [`login:ip:${request.ip}`] : [`login:ip:${request.ip}`, `login:account:${email}`]);
    // Told only after the right password, so the message reveals nothing to a guesser.
    if (user.blockedAt) {
      request.log.info({ userId: user.id, event: 'login_blocked' }, 'sign-in refused: account blocked');
      throw new AppError('FORBIDDEN', ACCOUNT_BLOCKED);
    }
    // With any second factor (app or passkey) the password is only the first step: no session exists
    // until the second factor is proved, so the half-finished sign-in can do nothing (issue 29).
    const methods = await secondFactorMethods(app.db, user.id);
    if (methods.length > 0) {
      setPendingSignIn(app, reply, user.id);
      request.log.info({ userId: user.id }, 'password accepted, second factor required');
      const message = methods.includes('totp') ? 'Enter the code from your authenticator app.' : 'Confirm with your passkey to finish signing in.';
      return { status: 'OK' as const, message, payload: { two_factor_required: true as const, methods } };
    }
    await finishSignIn(app, request, reply, user, false);
    return { status: 'OK' as const, message: `Welcome back, ${user.name}!` };
  });

  app.post('/login/2fa', { schema: { tags: ['auth'], body: loginTwoFactorInput, response: { 200: okMessage } } }, async (request, reply) => {
    const userId = pendingSignIn(request);
    const restart = 'Your sign-in has expired. Please enter your e-mail and password again.';
    if (userId == null) throw new AppError('UNAUTHENTICATED', restart);
    const user = await findUserById(app.db, userId);
    if (!user || user.deletedAt) throw new AppError('UNAUTHENTICATED', restart);
    if (user.blockedAt) throw new AppError('FORBIDDEN', ACCOUNT_BLOCKED);
    await verifySecondFactor(app, user.id, request.ip, request.body);
    clearPendingSignIn(reply);
    await finishSignIn(app, request, reply, user, true);
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

  app.post('/email/verify/resend', { config: guard('user'), schema: { tags: ['auth'], response: { 200: okMessage } } }, async (request) => {
    const user = currentUser(request);
    if (user.emailVerifiedAt) return { status: 'OK' as const, message: 'Your e-mail address is already verified.' };
    await enforceRateLimit(app.db, `verify-resend:${user.id}`, { limit: 3, windowSeconds: 600 }, 'We have sent several links already.');
    await sendVerificationMail(app, user);
    return { status: 'OK' as const, message: `We have sent a new link to ${user.email}.` };
  });

  const resetSent = 'If an account exists for that e-mail, we have sent a link to reset the password. Check your inbox.';

  app.post('/user/reset-password', { schema: { tags: ['auth'], body: forgotPasswordInput, response: { 200: okMessage } } }, async (request) => {
    const { email } = request.body;
    const started = performance.now();
    await enforceRateLimit(app.db, `reset:ip:${request.ip}`, { limit: 10, windowSeconds: 3600 }, msg('rate.reset'));
    const user = await findUserByEmail(app.db, email);
    // The same answer whether or not the account exists; an account gets at most 3 mails an hour.
    if (user) {
      const { count } = await hitRateLimit(app.db, `reset:account:${user.id}`, 3600);
      if (count <= 3) {
        await app.db.transaction(async (tx) => {
          const token = await createResetToken(tx, user.id);
          const url = `${app.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
          await sendMail(tx, {
            to: user.email,
            subject: 'Reset your Atelier password',
            text: `Hello ${user.name},\n\nOpen this link within ${RESET_MINUTES} minutes to choose a new password:\n${url}\n\nThe link works once. If you did not ask for it, ignore this message: your password stays as it is.`,
            html: mailHtml([`Hello ${user.name},`, `Open this link within ${RESET_MINUTES} minutes to choose a new password. It works once.`], {
              label: 'Choose a new password',
              url,
            }),
          });
        });
      }
    }
    // Known and unknown addresses answer after the same time, so the timing tells nothing either.
    await new Promise((r) => setTimeout(r, Math.max(0, RESET_ANSWER_MS - (performance.now() - started))));
    return { status: 'OK' as const, message: resetSent };
  });

  app.post('/reset-password', { schema: { tags: ['auth'], body: resetPasswordInput, response: { 200: okMessage } } }, async (request) => {
    const { email, token, password } = request.body;
    await enforceRateLimit(app.db, `reset-complete:ip:${request.ip}`, { limit: 20, windowSeconds: 3600 }, msg('rate.attempts'));
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
    // Every browser signed in as this user is signed out, and their live streams end.
    await revokeOtherSessions(app.db, user.id, undefined);
    return { status: 'OK' as const, message: 'Your password has been changed. You can sign in with it now.' };
  });

  app.post('/verification/phone/send', { config: guard('verified'), schema: { tags: ['auth'], response: { 200: okMessage } } }, async (request) => {
    const user = currentUser(request);
    if (!user.phone) throw validationError({ phone: 'Add a phone number to your profile first.' });
    if (user.phoneVerifiedAt) return { status: 'OK' as const, message: 'Your phone number is already verified.' };
    await enforceRateLimit(app.db, `phone-code:${user.id}`, { limit: 3, windowSeconds: 900 }, 'We have sent several codes already.');
    const code = await createPhoneCode(app.db, app.config.sessionSecret, user.id);
    // Text messages go through the same outbox; an SMS gateway plugs in here for real use.
    await sendMail(app.db, {
      to: user.phone,
      subject: 'SMS: Atelier verification code',
      text: `Your Atelier verification code is ${code}. It expires in ${PHONE_CODE_MINUTES} minutes.`,
    });
    const masked = `${user.phone.slice(0, 4)}•••${user.phone.slice(-2)}`;
    return { status: 'OK' as const, message: `We have sent a 6-digit code to ${masked}.` };
  });

  app.post(
    '/verification/phone/verify',
    { config: guard('verified'), schema: { tags: ['auth'], body: verifyPhoneInput, response: { 200: okMessage } } },
    async (request) => {
      const userId = currentUser(request).id;
      const result = await checkPhoneCode(app.db, app.config.sessionSecret, userId, request.body.code);
      const messages = {
        wrong: 'This code is not correct. Please check it and try again.',
        expired: 'This code has expired. Please ask for a new one.',
        none: 'Please ask for a code first.',
        locked: msg('auth.too_many_wrong_codes'),
      } as const;
      if (result !== 'ok') throw validationError({ code: messages[result] });
      await app.db.update(users).set({ phoneVerifiedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, userId));
      // Issue 31: the review of new sellers concerns sellers only, someone who has offered or listed a work.
      const [seller] = await app.db
        .select({
          yes: sql<boolean>`exists (select 1 from ${offers} where ${offers.userId} = ${userId}) or exists (select 1 from ${products} where ${products.authorId} = ${userId})`,
        })
        .from(users)
        .where(eq(users.id, userId));
      if (!seller?.yes) return { status: 'OK' as const, message: englishOf('auth.phone_verified') };
      return { status: 'OK' as const, message: englishOf('auth.phone_verified_review') };
    },
  );
};
