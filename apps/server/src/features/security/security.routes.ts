import {
  okMessage,
  recoveryCodesAnswer,
  securityStatusAnswer,
  sessionIdParams,
  stepUpInput,
  totpDisableInput,
  totpEnableInput,
  totpSetupAnswer,
  userSessionsAnswer,
} from '@atelier/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { verifyPassword } from '../../lib/passwords';
import { enforceRateLimit, releaseRateLimitHit } from '../../lib/rate-limit';
import { recordSecondFactor } from '../../lib/session';
import { listUserSessions, revokeOtherSessions, revokeSession } from './sessions';
import {
  beginTotpSetup,
  checkTotpCode,
  disableTotp,
  isSecondFactorFresh,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  requireFreshProof,
  requireFreshSecondFactor,
  stepUp,
  tellFactorChange,
  totpEnabled,
  userHasPasskey,
} from './two-factor';

const tags = ['security'];

/** The Security screen's calls (issue 21): sessions, two-factor sign-in and step-up. The 2FA sign-in step is auth's. */
export const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/sessions', { config: guard('user'), schema: { tags, response: { 200: userSessionsAnswer } } }, async (request) =>
    ok(await listUserSessions(app.db, currentUser(request).id, request.session?.id)),
  );

  app.delete('/user/sessions/:id', { config: guard('user'), schema: { tags, params: sessionIdParams, response: { 200: okMessage } } }, async (request) => {
    // Another user's session id is simply not found among this user's sessions.
    if (!(await revokeSession(app.db, currentUser(request).id, request.params.id))) throw notFound('This session does not exist or has already ended.');
    return { status: 'OK' as const, message: 'That browser is signed out.' };
  });

  app.post('/user/sessions/revoke-others', { config: guard('user'), schema: { tags, response: { 200: okMessage } } }, async (request) => {
    const n = await revokeOtherSessions(app.db, currentUser(request).id, request.session?.id);
    return { status: 'OK' as const, message: n === 1 ? 'One other browser is signed out.' : `${n} other browsers are signed out.` };
  });

  app.get('/user/security', { config: guard('user'), schema: { tags, response: { 200: securityStatusAnswer } } }, async (request) => {
    const userId = currentUser(request).id;
    return ok({
      totp_enabled: await totpEnabled(app.db, userId),
      recovery_codes_left: await recoveryCodesLeft(app.db, userId),
      has_passkey: await userHasPasskey(app.db, userId),
      second_factor_fresh: isSecondFactorFresh(request.session?.secondFactorAt),
    });
  });

  app.post('/user/2fa/setup', { config: guard('user'), schema: { tags, response: { 200: totpSetupAnswer } } }, async (request) => {
    const user = currentUser(request);
    // Setting up a factor is itself a change of how the account proves who it is (issue 29).
    await requireFreshProof(request);
    await enforceRateLimit(app.db, `2fa-setup:${user.id}`, { limit: 10, windowSeconds: 3600 }, 'Too many set-ups started.');
    return ok(await beginTotpSetup(app.db, app.config.sessionSecret, user.id, user.email));
  });

  app.post('/user/2fa/enable', { config: guard('user'), schema: { tags, body: totpEnableInput, response: { 200: recoveryCodesAnswer } } }, async (request) => {
    const user = currentUser(request);
    await requireFreshProof(request);
    await enforceRateLimit(app.db, `2fa:account:${user.id}`, { limit: 5, windowSeconds: 60 }, 'Too many codes tried.');
    const result = await checkTotpCode(app.db, app.config.sessionSecret, user.id, request.body.code, { pending: true });
    if (result === 'none') throw validationError({ code: 'Start the set-up first: scan the QR code, then enter the code your app shows.' });
    if (result !== 'ok') throw validationError({ code: 'This code is not correct. Check the time on your phone and try again.' });
    await releaseRateLimitHit(app.db, [`2fa:account:${user.id}`]);
    const codes = await replaceRecoveryCodes(app.db, user.id);
    // Enrolling proves the factor: the next few minutes' sensitive changes need no second code.
    if (request.session) await recordSecondFactor(app.db, request.session);
    await tellFactorChange(app, app.db, user.id, 'totp_on');
    request.log.info({ userId: user.id }, 'two-factor sign-in enabled');
    return ok({ recovery_codes: codes }, 'Two-factor sign-in is on. Keep your recovery codes somewhere safe: they are shown once.');
  });

  app.post('/user/2fa/disable', { config: guard('user'), schema: { tags, body: totpDisableInput, response: { 200: okMessage } } }, async (request) => {
    const user = currentUser(request);
    if (!(await totpEnabled(app.db, user.id))) throw validationError({ code: 'Two-factor sign-in is not on.' });
    if (!(await verifyPassword(user.passwordHash, request.body.password))) throw validationError({ password: 'The password is incorrect.' });
    // A code sent with the request is the step-up; without one, a fresh step-up in this session is needed.
    if (request.body.code !== undefined) await stepUp(request, { code: request.body.code });
    else await requireFreshSecondFactor(request);
    await disableTotp(app.db, user.id);
    await tellFactorChange(app, app.db, user.id, 'totp_off');
    request.log.info({ userId: user.id }, 'two-factor sign-in disabled');
    return { status: 'OK' as const, message: 'Two-factor sign-in is off.' };
  });

  app.post('/user/2fa/recovery-codes', { config: guard('user'), schema: { tags, response: { 200: recoveryCodesAnswer } } }, async (request) => {
    const user = currentUser(request);
    if (!(await totpEnabled(app.db, user.id))) throw new AppError('CONFLICT', 'Recovery codes come with two-factor sign-in. Turn it on first.');
    // New codes replace the old ones: as sensitive as any other change of factors (issue 29).
    await requireFreshProof(request);
    await enforceRateLimit(app.db, `recovery-codes:${user.id}`, { limit: 5, windowSeconds: 3600 }, 'New recovery codes were made several times already.');
    const codes = await replaceRecoveryCodes(app.db, user.id);
    await tellFactorChange(app, app.db, user.id, 'recovery_codes');
    request.log.info({ userId: user.id }, 'recovery codes replaced');
    return ok({ recovery_codes: codes }, 'Here are your new recovery codes. The old ones no longer work. They are shown once.');
  });

  app.post('/user/step-up', { config: guard('user'), schema: { tags, body: stepUpInput, response: { 200: okMessage } } }, async (request) => {
    // A code, a recovery code, or (for an account with no second factor) the password.
    await stepUp(request, request.body);
    return { status: 'OK' as const, message: 'Thank you. You can go on.' };
  });
};
