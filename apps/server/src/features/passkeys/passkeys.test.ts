import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPerson } from '../../../test/accounts';
import { SoftAuthenticator } from '../../../test/soft-authenticator';
import { TestClient, useTestApp } from '../../../test/test-app';
import { rowsOf } from '../../db/client';
import { sessions, users, webauthnChallenges } from '../../db/schema';

const logLines: string[] = [];
const t = useTestApp({ seed: true, logStream: { write: (line) => logLines.push(line) } });

const EXPIRED = 'This passkey request has expired or was already used. Please try again.';
const UNKNOWN = 'This passkey is not registered with Atelier. Sign in with your password, then add it on the Security tab.';
const COUNTER = 'This passkey reported a sign-in count lower than before, which can mean it was copied. Sign in another way and remove it.';
const NOT_ACCEPTED = 'This passkey could not be verified. Please try again.';

const authenticator = () => new SoftAuthenticator(t.app.config.webauthn.origin, t.app.config.webauthn.rpId);

/** A signed-in user who has added one passkey held by the returned authenticator. */
async function personWithPasskey(name = 'Laptop') {
  const person = await registerPerson(t.app);
  const device = authenticator();
  const options = await person.client.post('/api/user/passkeys/options');
  expect(options.statusCode).toBe(200);
  const added = await person.client.post('/api/user/passkeys', { response: device.register(options.json().payload), name });
  expect(added.statusCode, added.body).toBe(200);
  return { ...person, device, passkey: added.json().payload as { id: number; name: string } };
}

/** Moves the user's sessions' proofs past the step-up window, as if the user had added the passkey 11 minutes ago. */
async function staleProofs(userId: number) {
  const past = new Date(Date.now() - 11 * 60_000);
  await t.app.db.update(sessions).set({ secondFactorAt: past, provedAt: past }).where(eq(sessions.userId, userId));
}

/** A fresh browser asks for sign-in options and answers them with the device. */
async function passkeySignIn(device: SoftAuthenticator, overrides: Parameters<SoftAuthenticator['authenticate']>[1] = {}) {
  const browser = new TestClient(t.app);
  const options = await browser.post('/api/login/passkey/options');
  expect(options.statusCode).toBe(200);
  const response = device.authenticate(options.json().payload, overrides);
  const res = await browser.post('/api/login/passkey', { response });
  return { browser, res, response };
}

describe('adding and managing passkeys', () => {
  it('adds a passkey, lists it, renames it and removes it', async () => {
    const person = await registerPerson(t.app);
    const device = authenticator();
    const options = await person.client.post('/api/user/passkeys/options');
    expect(options.statusCode).toBe(200);
    const opts = options.json().payload;
    expect(opts.rp).toEqual({ id: t.app.config.webauthn.rpId, name: 'Atelier' });
    expect(opts.user.name).toBe(person.email);
    expect(opts.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });

    const added = await person.client.post('/api/user/passkeys', { response: device.register(opts), name: '  Work laptop ' });
    expect(added.statusCode, added.body).toBe(200);
    const body = added.json();
    expect(body.status).toBe('OK');
    // One envelope (issue 31): the passkey is the payload, once.
    expect(Object.keys(body).sort()).toEqual(['message', 'payload', 'status']);
    expect(body.payload).toEqual({ id: expect.any(Number), name: 'Work laptop', created_at: expect.any(String), last_used_at: null });

    const list = await person.client.get('/api/user/passkeys');
    expect(list.statusCode).toBe(200);
    expect(list.json().payload).toEqual([body.payload]);

    const renamed = await person.client.request('PATCH', `/api/user/passkeys/${body.payload.id}`, { body: { name: 'Phone' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().payload.name).toBe('Phone');
    expect((await person.client.get('/api/user/passkeys')).json().payload[0].name).toBe('Phone');

    const removed = await person.client.delete(`/api/user/passkeys/${body.payload.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe('The passkey has been removed.');
    expect((await person.client.get('/api/user/passkeys')).json().payload).toEqual([]);
    expect((await person.client.delete(`/api/user/passkeys/${body.payload.id}`)).statusCode).toBe(404);
  });

  it('offers the passkeys already added as excluded, and refuses the same credential twice', async () => {
    const { client, device, passkey } = await personWithPasskey();
    const again = await client.post('/api/user/passkeys/options');
    expect(again.json().payload.excludeCredentials).toEqual([{ id: device.credentialId, type: 'public-key', transports: ['internal'] }]);
    expect(passkey.name).toBe('Laptop');
  });

  it('refuses a registration answered for another site, another origin or without user verification', async () => {
    const person = await registerPerson(t.app);
    for (const overrides of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }, { type: 'webauthn.get' }]) {
      const options = await person.client.post('/api/user/passkeys/options');
      const res = await person.client.post('/api/user/passkeys', { response: authenticator().register(options.json().payload, overrides), name: 'Key' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.response).toEqual([NOT_ACCEPTED]);
    }
    expect((await person.client.get('/api/user/passkeys')).json().payload).toEqual([]);
  });

  it('uses a registration challenge once, and only in the session it was given to', async () => {
    const person = await registerPerson(t.app);
    const other = await registerPerson(t.app);
    const options = (await person.client.post('/api/user/passkeys/options')).json().payload;
    const response = authenticator().register(options);
    const stolen = await other.client.post('/api/user/passkeys', { response, name: 'Stolen' });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().errors.response).toEqual([EXPIRED]);
    // The other session's attempt did not use it up: the owner's still counts, once.
    expect((await person.client.post('/api/user/passkeys', { response, name: 'Mine' })).statusCode).toBe(200);
    const replay = await person.client.post('/api/user/passkeys', { response: authenticator().register(options), name: 'Twice' });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.response).toEqual([EXPIRED]);
    expect((await other.client.get('/api/user/passkeys')).json().payload).toEqual([]);
  });

  it('refuses a registration challenge older than 5 minutes', async () => {
    const person = await registerPerson(t.app);
    const options = (await person.client.post('/api/user/passkeys/options')).json().payload;
    await t.app.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, options.challenge));
    const res = await person.client.post('/api/user/passkeys', { response: authenticator().register(options), name: 'Late' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response).toEqual([EXPIRED]);
  });

  it("keeps a second user away from the first user's passkeys", async () => {
    const owner = await personWithPasskey();
    const intruder = await registerPerson(t.app);
    expect((await intruder.client.get('/api/user/passkeys')).json().payload).toEqual([]);
    const rename = await intruder.client.request('PATCH', `/api/user/passkeys/${owner.passkey.id}`, { body: { name: 'Mine now' } });
    expect(rename.statusCode).toBe(404);
    expect((await intruder.client.delete(`/api/user/passkeys/${owner.passkey.id}`)).statusCode).toBe(404);
    expect((await owner.client.get('/api/user/passkeys')).json().payload).toEqual([expect.objectContaining({ id: owner.passkey.id, name: 'Laptop' })]);
  });

  it('asks a guest to sign in', async () => {
    const guest = new TestClient(t.app);
    expect((await guest.get('/api/user/passkeys')).statusCode).toBe(401);
    expect((await guest.post('/api/user/passkeys/options')).statusCode).toBe(401);
    expect((await guest.delete('/api/user/passkeys/1')).statusCode).toBe(401);
  });

  it('answers bad input with 422 and a message per field, never a 500', async () => {
    const { client, passkey } = await personWithPasskey();
    const bodies: unknown[] = [
      {},
      { name: 'x' },
      { response: 'nope', name: 'x' },
      { response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: '!!', attestationObject: 'AA' } }, name: 'x' },
      { response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } }, name: '' },
      { response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } }, name: 'x'.repeat(61) },
      { response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' } }, name: 'ok' },
    ];
    for (const body of bodies) {
      const res = await client.post('/api/user/passkeys', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().status).toBe('ERROR');
      expect(Object.keys(res.json().errors ?? {}).length).toBeGreaterThan(0);
    }
    const tooLong = await client.request('PATCH', `/api/user/passkeys/${passkey.id}`, { body: { name: 'x'.repeat(61) } });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors.name).toEqual(['The passkey name may have at most 60 characters.']);
    const blank = await client.request('PATCH', `/api/user/passkeys/${passkey.id}`, { body: { name: '   ' } });
    expect(blank.json().errors.name).toEqual(['The passkey name field is required.']);
    expect((await client.delete('/api/user/passkeys/abc')).statusCode).toBe(422);
    expect((await client.delete('/api/user/passkeys/99999999999999999999')).statusCode).toBe(422);
    const garbageSignIn = await new TestClient(t.app).post('/api/login/passkey', {
      response: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' } },
    });
    expect(garbageSignIn.statusCode).toBe(422);
    expect((await new TestClient(t.app).post('/api/login/passkey', { response: 5 })).statusCode).toBe(422);
  });
});

describe('signing in with a passkey', () => {
  it('signs in with no password; the session works and counts as a fresh second factor', async () => {
    const { device, email, passkey, id } = await personWithPasskey();
    await staleProofs(id);
    const { browser, res } = await passkeySignIn(device);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Welcome back, Ines!');
    const profile = await browser.get('/api/user/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().payload.email).toBe(email);
    expect((await browser.get('/api/is-auth')).json().payload.authenticated).toBe(true);
    const fresh = rowsOf<unknown>(
      await t.app.db.execute(
        sql`select second_factor_at from sessions where user_id = (select id from users where email = ${email}) and second_factor_at > now() - interval '10 minutes'`,
      ),
    );
    expect(fresh.length).toBe(1);
    const listed = (await browser.get('/api/user/passkeys')).json().payload;
    expect(listed).toEqual([expect.objectContaining({ id: passkey.id, last_used_at: expect.any(String) })]);
  });

  it('refuses a replayed answer: each challenge is used once', async () => {
    const { device } = await personWithPasskey();
    const { browser, res, response } = await passkeySignIn(device);
    expect(res.statusCode).toBe(200);
    await browser.post('/api/logout');
    const replay = await browser.post('/api/login/passkey', { response });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.response).toEqual([EXPIRED]);
    expect((await browser.get('/api/user/profile')).statusCode).toBe(401);
  });

  it('lets only one of two simultaneous answers to one challenge through', async () => {
    const { device } = await personWithPasskey();
    const browser = new TestClient(t.app);
    await browser.csrf();
    const options = (await browser.post('/api/login/passkey/options')).json().payload;
    const response = device.authenticate(options);
    const results = await Promise.all([browser.post('/api/login/passkey', { response }), browser.post('/api/login/passkey', { response })]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes[0]).toBe(200);
    // The loser is refused: its challenge is gone (422), or the winner already rotated the session (419).
    expect([419, 422]).toContain(codes[1]);
  });

  it('refuses an answer to a challenge given to another browser', async () => {
    const { device } = await personWithPasskey();
    const first = new TestClient(t.app);
    const options = (await first.post('/api/login/passkey/options')).json().payload;
    const thief = new TestClient(t.app);
    await thief.post('/api/login/passkey/options');
    const res = await thief.post('/api/login/passkey', { response: device.authenticate(options) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response).toEqual([EXPIRED]);
  });

  it('refuses an expired challenge', async () => {
    const { device } = await personWithPasskey();
    const browser = new TestClient(t.app);
    const options = (await browser.post('/api/login/passkey/options')).json().payload;
    await t.app.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, options.challenge));
    const res = await browser.post('/api/login/passkey', { response: device.authenticate(options) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response).toEqual([EXPIRED]);
    expect((await browser.get('/api/user/profile')).statusCode).toBe(401);
  });

  it('refuses a sign counter that does not rise', async () => {
    const { device } = await personWithPasskey();
    device.setCounter(9);
    expect((await passkeySignIn(device)).res.statusCode).toBe(200); // counter 10
    for (const counter of [10, 3]) {
      const { browser, res } = await passkeySignIn(device, { counter });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.response).toEqual([COUNTER]);
      expect((await browser.get('/api/user/profile')).statusCode).toBe(401);
    }
    expect((await passkeySignIn(device, { counter: 11 })).res.statusCode).toBe(200);
  });

  it('refuses a passkey that is not registered, or was removed', async () => {
    const stranger = authenticator();
    stranger.register({ challenge: 'AAAA', user: { id: 'AAAA' } });
    const { res } = await passkeySignIn(stranger);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response).toEqual([UNKNOWN]);

    const { client, device, passkey } = await personWithPasskey();
    await client.delete(`/api/user/passkeys/${passkey.id}`);
    const removed = await passkeySignIn(device);
    expect(removed.res.statusCode).toBe(422);
    expect(removed.res.json().errors.response).toEqual([UNKNOWN]);
  });

  it('refuses an answer signed for another site or origin', async () => {
    const { device } = await personWithPasskey();
    for (const overrides of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { userVerified: false }]) {
      const { res } = await passkeySignIn(device, overrides);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.response).toEqual([NOT_ACCEPTED]);
    }
  });

  it('refuses a blocked account the way password sign-in does', async () => {
    const { device, id } = await personWithPasskey();
    await t.app.db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, id));
    const { browser, res } = await passkeySignIn(device);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account is blocked. Please contact support if you think this is a mistake.');
    expect((await browser.get('/api/is-auth')).json().payload.authenticated).toBe(false);
  });

  it('refuses a sign-in without the options cookie', async () => {
    const { device } = await personWithPasskey();
    const browser = new TestClient(t.app);
    const options = (await browser.post('/api/login/passkey/options')).json().payload;
    browser.cookies.delete('atelier_passkey');
    const res = await browser.post('/api/login/passkey', { response: device.authenticate(options) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response).toEqual([EXPIRED]);
  });
});

describe('logs', () => {
  it('never carry a challenge, credential id, public key, signature, the sign-in cookie or the e-mail', async () => {
    const { device, email, client } = await personWithPasskey('Log test');
    const { browser, response } = await passkeySignIn(device);
    await client.get('/api/user/passkeys');
    const secrets = [
      device.credentialId,
      response.response.signature,
      response.response.authenticatorData,
      response.response.clientDataJSON,
      JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString()).challenge as string,
      browser.cookies.get('atelier_session')!,
      email,
    ];
    const rows = rowsOf<{ public_key: string }>(await t.app.db.execute(sql`select public_key from passkeys where credential_id = ${device.credentialId}`));
    secrets.push(rows[0]!.public_key);
    const log = logLines.join('');
    expect(log).toContain('user signed in with a passkey');
    for (const secret of secrets) expect(log.includes(secret), secret).toBe(false);
  });
});

describe('step-up with a passkey (issue 21)', () => {
  const change = (password: string) => ({ cur_password: password, new_password: 'amber-lantern-77', repeat_password: 'amber-lantern-77' });

  it('a user whose second factor is a passkey is asked for it before a password change, and the passkey answers the step-up', async () => {
    const a = await personWithPasskey();
    await staleProofs(a.id);
    const refused = await a.client.post('/api/user/change-password', change(a.password));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.step_up).toEqual(['Please confirm it is you with your passkey.']);
    expect((await a.client.get('/api/user/security')).json().payload).toMatchObject({ totp_enabled: false, has_passkey: true, second_factor_fresh: false });

    const options = await a.client.post('/api/user/step-up/passkey/options');
    expect(options.statusCode).toBe(200);
    expect(options.json().payload.allowCredentials).toEqual([{ id: a.device.credentialId, type: 'public-key', transports: ['internal'] }]);
    const response = a.device.authenticate(options.json().payload);
    const stepped = await a.client.post('/api/user/step-up/passkey', { response });
    expect(stepped.statusCode, stepped.body).toBe(200);
    expect((await a.client.get('/api/user/security')).json().payload.second_factor_fresh).toBe(true);
    // The challenge was single-use.
    const replay = await a.client.post('/api/user/step-up/passkey', { response });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.response).toEqual([EXPIRED]);

    const changed = await a.client.post('/api/user/change-password', change(a.password));
    expect(changed.statusCode, changed.body).toBe(200);
  });

  it("a second user cannot step up with the first user's passkey, nor answer the first user's challenge", async () => {
    const a = await personWithPasskey();
    const b = await personWithPasskey();
    await staleProofs(a.id);
    await staleProofs(b.id);
    // B's challenge answered with A's passkey: not B's.
    const bOptions = (await b.client.post('/api/user/step-up/passkey/options')).json().payload;
    const foreign = await b.client.post('/api/user/step-up/passkey', { response: a.device.authenticate(bOptions) });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.response).toEqual(['This passkey does not belong to your account.']);
    // A's challenge answered in B's session: bound to A's session, so unknown here.
    const aOptions = (await a.client.post('/api/user/step-up/passkey/options')).json().payload;
    const crossed = await b.client.post('/api/user/step-up/passkey', { response: b.device.authenticate(aOptions) });
    expect(crossed.statusCode).toBe(422);
    expect(crossed.json().errors.response).toEqual([EXPIRED]);
    expect((await b.client.get('/api/user/security')).json().payload.second_factor_fresh).toBe(false);
    // A user without a passkey is told to use the app instead; a guest is refused.
    const plain = await registerPerson(t.app);
    const none = await plain.client.post('/api/user/step-up/passkey/options');
    expect(none.statusCode).toBe(422);
    expect((await new TestClient(t.app).post('/api/user/step-up/passkey/options')).statusCode).toBe(401);
  });

  it('a step-up answer with a counter that did not rise is refused', async () => {
    const a = await personWithPasskey();
    await a.client.post('/api/user/step-up/passkey/options').then(async (o) => {
      const first = await a.client.post('/api/user/step-up/passkey', { response: a.device.authenticate(o.json().payload) });
      expect(first.statusCode).toBe(200);
    });
    const options = (await a.client.post('/api/user/step-up/passkey/options')).json().payload;
    const res = await a.client.post('/api/user/step-up/passkey', { response: a.device.authenticate(options, { counter: 1 }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.response).toEqual([COUNTER]);
  });
});
