import { createHmac, randomBytes } from 'node:crypto';
import {
  addedPasskey,
  addPasskeyInput,
  msg,
  okEnvelope,
  okMessage,
  PASSKEY_CHALLENGE_MINUTES,
  PASSKEYS_PER_USER,
  type PasskeySignInInput,
  passkey,
  passkeyOptions,
  passkeyParams,
  passkeySignInInput,
  renamePasskeyInput,
} from '@atelier/shared';
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findUserById } from '../../db/users';
import { AppError, notFound, validationError } from '../../lib/app-error';
import { ACCOUNT_BLOCKED, currentUser, guard } from '../../lib/auth-guard';
import { ok } from '../../lib/envelope';
import { enforceRateLimit } from '../../lib/rate-limit';
import { recordSecondFactor, startSession } from '../../lib/session';
import { clearPendingSignIn, finishSignIn, pendingSignInStep } from '../auth';
import { requireFreshProof, tellFactorChange } from '../security';
import {
  consumeChallenge,
  countPasskeys,
  deletePasskey,
  findPasskeyByCredentialId,
  insertPasskey,
  listPasskeys,
  recordPasskeyUse,
  renamePasskey,
  saveChallenge,
  toPasskey,
} from './passkeys.queries';

/** Names the sign-in ceremony's challenge for this browser: signed, httpOnly, gone after 5 minutes. */
export const PASSKEY_SIGN_IN_COOKIE = 'atelier_passkey';
const SIGN_IN_COOKIE_PATH = '/api/login/passkey';
const CHALLENGE_MS = PASSKEY_CHALLENGE_MINUTES * 60_000;

const EXPIRED = 'This passkey request has expired or was already used. Please try again.';
const NOT_ACCEPTED = 'This passkey could not be verified. Please try again.';
const UNKNOWN = 'This passkey is not registered with Atelier. Sign in with your password, then add it on the Security tab.';
const COUNTER = 'This passkey reported a sign-in count lower than before, which can mean it was copied. Sign in another way and remove it.';
const PASSKEY_NOT_FOUND = 'This passkey was not found.';
const RESTART = 'Your sign-in has expired. Please enter your e-mail and password again.';

/**
 * The WebAuthn user handle: stable per account, opaque (no e-mail or id in clear), so an
 * authenticator keeps one passkey per account and a sign-in's handle can be checked against it.
 */
function webauthnUserId(secret: string, userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHmac('sha256', secret).update(`webauthn-user:${userId}`).digest().subarray(0, 16));
}

/** The challenge a browser signed, read from its clientDataJSON; null when that is not readable. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const challenge = decodeClientDataJSON(clientDataJSON).challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

type StoredPasskey = NonNullable<Awaited<ReturnType<typeof findPasskeyByCredentialId>>>;

/**
 * Checks a signed challenge against a stored passkey and records the use: the signature, the origin,
 * the relying party, user verification, and a signature counter that rose (one statement checks and
 * writes it, so two answers with the same counter cannot both pass). Throws a 422 naming the problem.
 */
async function verifyAssertion(request: FastifyRequest, key: StoredPasskey, challenge: string, response: PasskeySignInInput['response']) {
  const { rpId, origin } = request.server.config.webauthn;
  const userId = key.userId;
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      credential: {
        id: key.credentialId,
        publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error('not verified');
    newCounter = verification.authenticationInfo.newCounter;
  } catch (err) {
    const counterProblem = err instanceof Error && /counter/i.test(err.message);
    request.log.info({ userId, event: 'passkey_check_failed' }, counterProblem ? 'passkey refused: counter did not rise' : 'passkey not verified');
    throw validationError({ response: counterProblem ? COUNTER : NOT_ACCEPTED });
  }
  if (!(await recordPasskeyUse(request.server.db, key.id, newCounter))) {
    request.log.info({ userId, event: 'passkey_check_failed' }, 'passkey refused: counter did not rise');
    throw validationError({ response: COUNTER });
  }
}

export const passkeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const { rpId, origin } = app.config.webauthn;
  const tags = ['passkeys'];

  app.get('/user/passkeys', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(z.array(passkey)) } } }, async (request) => {
    const rows = await listPasskeys(app.db, currentUser(request).id);
    return ok(rows.map(toPasskey));
  });

  app.post('/user/passkeys/options', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(passkeyOptions) } } }, async (request) => {
    const user = currentUser(request);
    // Adding a passkey changes how the account proves who it is: a stale session may not (issue 29).
    await requireFreshProof(request);
    await enforceRateLimit(app.db, `passkey-options:${user.id}`, { limit: 30, windowSeconds: 600 }, 'Too many passkey requests.');
    const existing = await listPasskeys(app.db, user.id);
    if (existing.length >= PASSKEYS_PER_USER) throw validationError({ name: `You can keep at most ${PASSKEYS_PER_USER} passkeys. Remove one first.` });
    const options = await generateRegistrationOptions({
      rpName: 'Atelier',
      rpID: rpId,
      userName: user.email,
      userDisplayName: `${user.name} ${user.surname}`.trim(),
      userID: webauthnUserId(app.config.sessionSecret, user.id),
      timeout: CHALLENGE_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await saveChallenge(app.db, { challenge: options.challenge, purpose: 'register', boundTo: `session:${request.session!.id}`, userId: user.id });
    return ok({ ...options });
  });

  app.post('/user/passkeys', { config: guard('user'), schema: { tags, body: addPasskeyInput, response: { 200: addedPasskey } } }, async (request) => {
    const user = currentUser(request);
    await requireFreshProof(request);
    const { response, name } = request.body;
    const challenge = signedChallenge(response.response.clientDataJSON);
    const issued = challenge ? await consumeChallenge(app.db, challenge, 'register', `session:${request.session!.id}`) : undefined;
    if (!challenge || !issued || issued.userId !== user.id) throw validationError({ response: EXPIRED });
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
      });
    } catch {
      throw validationError({ response: NOT_ACCEPTED });
    }
    if (!verification.verified) throw validationError({ response: NOT_ACCEPTED });
    const { credential } = verification.registrationInfo;
    if ((await countPasskeys(app.db, user.id)) >= PASSKEYS_PER_USER) {
      throw validationError({ name: `You can keep at most ${PASSKEYS_PER_USER} passkeys. Remove one first.` });
    }
    const row = await insertPasskey(app.db, {
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).slice(0, 10),
      name,
    });
    if (!row) throw validationError({ response: 'This passkey is already registered.' });
    await tellFactorChange(app, app.db, user.id, 'passkey_added', row.name);
    // The session was freshly proved to get here and has just used the new passkey with user
    // verification: it counts as a second factor proved now, as enrolling the app does.
    await recordSecondFactor(app.db, request.session!);
    request.log.info({ userId: user.id, passkeyId: row.id }, 'passkey added');
    return { status: 'OK' as const, payload: toPasskey(row), message: 'Your passkey has been added.' };
  });

  app.patch(
    '/user/passkeys/:id',
    { config: guard('user'), schema: { tags, params: passkeyParams, body: renamePasskeyInput, response: { 200: okEnvelope(passkey) } } },
    async (request) => {
      await requireFreshProof(request);
      const row = await renamePasskey(app.db, currentUser(request).id, request.params.id, request.body.name);
      if (!row) throw notFound(PASSKEY_NOT_FOUND);
      return ok(toPasskey(row), 'The passkey has been renamed.');
    },
  );

  app.delete('/user/passkeys/:id', { config: guard('user'), schema: { tags, params: passkeyParams, response: { 200: okMessage } } }, async (request) => {
    const userId = currentUser(request).id;
    await requireFreshProof(request);
    const removed = await deletePasskey(app.db, userId, request.params.id);
    if (!removed) throw notFound(PASSKEY_NOT_FOUND);
    await tellFactorChange(app, app.db, userId, 'passkey_removed', removed.name);
    request.log.info({ userId, passkeyId: request.params.id }, 'passkey removed');
    return { status: 'OK' as const, message: 'The passkey has been removed.' };
  });

  const signInCookie = { path: SIGN_IN_COOKIE_PATH, httpOnly: true, sameSite: 'strict' as const, secure: origin.startsWith('https://') };

  app.post('/login/passkey/options', { schema: { tags: ['auth'], response: { 200: okEnvelope(passkeyOptions) } } }, async (request, reply) => {
    await enforceRateLimit(app.db, `passkey-login-options:ip:${request.ip}`, { limit: 30, windowSeconds: 60 }, 'Too many sign-in attempts.');
    // Discoverable credentials: no allow-list, so the browser offers every passkey it holds for this site.
    const options = await generateAuthenticationOptions({ rpID: rpId, userVerification: 'required', timeout: CHALLENGE_MS });
    const nonce = randomBytes(24).toString('base64url');
    await saveChallenge(app.db, { challenge: options.challenge, purpose: 'sign_in', boundTo: `cookie:${nonce}` });
    reply.setCookie(PASSKEY_SIGN_IN_COOKIE, nonce, { ...signInCookie, signed: true, maxAge: PASSKEY_CHALLENGE_MINUTES * 60 });
    return ok({ ...options });
  });

  app.post('/login/passkey', { schema: { tags: ['auth'], body: passkeySignInInput, response: { 200: okMessage } } }, async (request, reply) => {
    await enforceRateLimit(app.db, `passkey-login:ip:${request.ip}`, { limit: 20, windowSeconds: 60 }, 'Too many sign-in attempts.');
    const { response } = request.body;
    const raw = request.cookies[PASSKEY_SIGN_IN_COOKIE];
    const cookie = raw && raw.length <= 200 ? request.unsignCookie(raw) : null;
    const nonce = cookie?.valid ? cookie.value : null;
    const challenge = signedChallenge(response.response.clientDataJSON);
    const issued = nonce && challenge ? await consumeChallenge(app.db, challenge, 'sign_in', `cookie:${nonce}`) : undefined;
    reply.clearCookie(PASSKEY_SIGN_IN_COOKIE, { path: SIGN_IN_COOKIE_PATH });
    if (!challenge || !issued) throw validationError({ response: EXPIRED });

    const key = await findPasskeyByCredentialId(app.db, response.id);
    const user = key ? await findUserById(app.db, key.userId) : undefined;
    const handle = response.response.userHandle;
    const handleMatches = !handle || (user && handle === Buffer.from(webauthnUserId(app.config.sessionSecret, user.id)).toString('base64url'));
    if (!key || !user || user.deletedAt || !handleMatches) {
      request.log.info({ event: 'passkey_login_failed' }, 'passkey sign-in failed: unknown credential');
      throw validationError({ response: UNKNOWN });
    }
    await verifyAssertion(request, key, challenge, response);
    // As with a password: told only after the passkey proved itself.
    if (user.blockedAt) {
      request.log.info({ userId: user.id, event: 'login_blocked' }, 'sign-in refused: account blocked');
      throw new AppError('FORBIDDEN', ACCOUNT_BLOCKED);
    }
    // A passkey is two factors at once: the session starts with its second factor proved.
    await startSession(request, reply, user.id, { secondFactor: true });
    request.log.info({ userId: user.id }, 'user signed in with a passkey');
    return { status: 'OK' as const, message: `Welcome back, ${user.name}!` };
  });
  // Step-up with a passkey (issue 21): a passkey the signed-in user holds proves the second factor
  // again for this session, as a code from the app does at /user/step-up.
  app.post('/user/step-up/passkey/options', { config: guard('user'), schema: { tags, response: { 200: okEnvelope(passkeyOptions) } } }, async (request) => {
    const user = currentUser(request);
    await enforceRateLimit(app.db, `passkey-options:${user.id}`, { limit: 30, windowSeconds: 600 }, 'Too many passkey requests.');
    const keys = await listPasskeys(app.db, user.id);
    if (keys.length === 0) throw validationError({ response: 'You have no passkey yet. Confirm with a code from your authenticator app.' });
    const options = await generateAuthenticationOptions({
      rpID: rpId,
      userVerification: 'required',
      timeout: CHALLENGE_MS,
      allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: k.transports })),
    });
    await saveChallenge(app.db, { challenge: options.challenge, purpose: 'step_up', boundTo: `session:${request.session!.id}`, userId: user.id });
    return ok({ ...options });
  });

  app.post('/user/step-up/passkey', { config: guard('user'), schema: { tags, body: passkeySignInInput, response: { 200: okMessage } } }, async (request) => {
    const user = currentUser(request);
    await enforceRateLimit(app.db, `passkey-step-up:${user.id}`, { limit: 20, windowSeconds: 60 }, msg('rate.attempts'));
    const { response } = request.body;
    const challenge = signedChallenge(response.response.clientDataJSON);
    const issued = challenge ? await consumeChallenge(app.db, challenge, 'step_up', `session:${request.session!.id}`) : undefined;
    if (!challenge || !issued || issued.userId !== user.id) throw validationError({ response: EXPIRED });
    const key = await findPasskeyByCredentialId(app.db, response.id);
    // Another account's passkey is as unknown here as one never registered.
    if (!key || key.userId !== user.id) throw validationError({ response: 'This passkey does not belong to your account.' });
    await verifyAssertion(request, key, challenge, response);
    await recordSecondFactor(app.db, request.session!);
    request.log.info({ userId: user.id, passkeyId: key.id }, 'step-up with a passkey');
    return { status: 'OK' as const, message: 'Thank you, you can go on.' };
  });

  // The passkey that finishes a password sign-in (issue 29): only after the right password, only the
  // passkeys of the account that is waiting, and a challenge bound to that one password step. Until
  // it is proved there is no session, so nothing else answers as this account.
  const pendingBinding = (step: { userId: number; until: number }) => `pending:${step.userId}:${step.until}`;

  app.post('/login/2fa/passkey/options', { schema: { tags: ['auth'], response: { 200: okEnvelope(passkeyOptions) } } }, async (request) => {
    const step = pendingSignInStep(request);
    if (!step) throw new AppError('UNAUTHENTICATED', RESTART);
    await enforceRateLimit(app.db, `passkey-2fa-options:${step.userId}`, { limit: 30, windowSeconds: 600 }, 'Too many passkey requests.');
    const keys = await listPasskeys(app.db, step.userId);
    if (keys.length === 0) throw validationError({ response: 'This account has no passkey. Use a code from your authenticator app.' });
    const options = await generateAuthenticationOptions({
      rpID: rpId,
      userVerification: 'required',
      timeout: CHALLENGE_MS,
      allowCredentials: keys.map((k) => ({ id: k.credentialId, transports: k.transports })),
    });
    await saveChallenge(app.db, { challenge: options.challenge, purpose: 'sign_in_2fa', boundTo: pendingBinding(step), userId: step.userId });
    return ok({ ...options });
  });

  app.post('/login/2fa/passkey', { schema: { tags: ['auth'], body: passkeySignInInput, response: { 200: okMessage } } }, async (request, reply) => {
    const step = pendingSignInStep(request);
    if (!step) throw new AppError('UNAUTHENTICATED', RESTART);
    await enforceRateLimit(app.db, `passkey-2fa:${step.userId}`, { limit: 20, windowSeconds: 60 }, 'Too many sign-in attempts.');
    const { response } = request.body;
    const challenge = signedChallenge(response.response.clientDataJSON);
    const issued = challenge ? await consumeChallenge(app.db, challenge, 'sign_in_2fa', pendingBinding(step)) : undefined;
    if (!challenge || !issued || issued.userId !== step.userId) throw validationError({ response: EXPIRED });
    const key = await findPasskeyByCredentialId(app.db, response.id);
    if (!key || key.userId !== step.userId) throw validationError({ response: 'This passkey does not belong to the account you are signing in to.' });
    const user = await findUserById(app.db, step.userId);
    if (!user || user.deletedAt) throw new AppError('UNAUTHENTICATED', RESTART);
    await verifyAssertion(request, key, challenge, response);
    if (user.blockedAt) throw new AppError('FORBIDDEN', ACCOUNT_BLOCKED);
    clearPendingSignIn(reply);
    await finishSignIn(app, request, reply, user, true);
    return { status: 'OK' as const, message: `Welcome back, ${user.name}!` };
  });
};
