import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, registerStaff } from '../../../test/accounts';
import { payoutContact } from '../../../test/payouts';
import { createTestApp, type TestApp, TestClient, useTestApp } from '../../../test/test-app';
import { awayFromStepEdge } from '../../../test/totp';
import { offers, payouts, sessions, userRecoveryCodes, users, userTotp } from '../../db/schema';

const t = useTestApp({ seed: true });

/** The code an authenticator app shows `steps` periods from now (-1: the previous one). */
function codeAt(secret: string, steps = 0) {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A signed-in user who turned on 2FA with the previous period's code. */
async function enrolled(app: FastifyInstance) {
  const person = await registerPerson(app);
  const setup = await person.client.post('/api/user/2fa/setup');
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json().payload as { secret: string };
  await awayFromStepEdge();
  const enable = await person.client.post('/api/user/2fa/enable', { code: codeAt(secret, -1) });
  expect(enable.statusCode).toBe(200);
  return { ...person, secret, recoveryCodes: enable.json().payload.recovery_codes as string[] };
}

async function passwordStep(app: FastifyInstance, email: string, password: string) {
  const client = new TestClient(app);
  const res = await client.post('/api/login', { username: email, password });
  return { client, res };
}

/** Makes the session's last second factor older than the step-up window. */
async function staleSecondFactor(app: FastifyInstance, userId: number) {
  await app.db
    .update(sessions)
    .set({ secondFactorAt: new Date(Date.now() - 11 * 60_000) })
    .where(eq(sessions.userId, userId));
}

describe('two-factor sign-in (issue 21)', () => {
  it('issue 21: enrolment gives a secret, an otpauth URL and a server-drawn SVG QR code; the first right code turns it on with 10 recovery codes', async () => {
    const a = await registerPerson(t.app);
    const setup = await a.client.post('/api/user/2fa/setup');
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url, qr_svg } = setup.json().payload;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/Atelier:.+\?.*secret=/);
    expect(otpauth_url).toContain(encodeURIComponent(a.email));
    expect(qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // The secret is kept encrypted, never as given.
    const [row] = await t.app.db.select().from(userTotp).where(eq(userTotp.userId, a.id));
    expect(row!.secretEnc).not.toContain(secret);
    expect(row!.enabledAt).toBeNull();

    // Not on until a right code arrives: the password alone still signs in.
    expect((await passwordStep(t.app, a.email, a.password)).res.json().payload?.two_factor_required).toBeUndefined();
    const wrong = await a.client.post('/api/user/2fa/enable', { code: codeAt(secret, 5) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code[0]).toContain('not correct');
    const bad = await a.client.post('/api/user/2fa/enable', { code: '12ab' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.code).toEqual(['Enter the 6-digit code from your authenticator app.']);

    const enable = await a.client.post('/api/user/2fa/enable', { code: codeAt(secret) });
    expect(enable.statusCode).toBe(200);
    const codes = enable.json().payload.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    // Stored hashed: no code appears in the table.
    const stored = await t.app.db.select().from(userRecoveryCodes).where(eq(userRecoveryCodes.userId, a.id));
    expect(stored).toHaveLength(10);
    for (const s of stored) for (const c of codes) expect(s.codeHash).not.toContain(c.replace('-', ''));
    const status = await a.client.get('/api/user/security');
    expect(status.json().payload).toEqual({ totp_enabled: true, has_passkey: false, recovery_codes_left: 10, second_factor_fresh: true });
    // A second set-up is refused while it is on.
    expect((await a.client.post('/api/user/2fa/setup')).statusCode).toBe(409);
  });

  it('issue 21: with 2FA on, the right password creates no session, only a pending step; the code completes the sign-in; a replayed code is refused', async () => {
    const a = await enrolled(t.app);
    const { client, res } = await passwordStep(t.app, a.email, a.password);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'OK', payload: { two_factor_required: true } });
    expect((await client.get('/api/user/profile')).statusCode).toBe(401);
    expect((await client.get('/api/is-auth')).json().payload.authenticated).toBe(false);

    const code = codeAt(a.secret);
    const done = await client.post('/api/login/2fa', { code });
    expect(done.statusCode).toBe(200);
    expect((await client.get('/api/user/profile')).json().payload.email).toBe(a.email);

    // The same code, in its time window, from another browser that knows the password: refused.
    const other = await passwordStep(t.app, a.email, a.password);
    const replay = await other.client.post('/api/login/2fa', { code });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.code[0]).toContain('already used');
    expect((await other.client.get('/api/user/profile')).statusCode).toBe(401);
    // The next code from the app works.
    expect((await other.client.post('/api/login/2fa', { code: codeAt(a.secret, 1) })).statusCode).toBe(200);
  });

  it('issue 21: the code step needs the password step first, and a wrong code is a 422', async () => {
    const a = await enrolled(t.app);
    const stranger = new TestClient(t.app);
    const none = await stranger.post('/api/login/2fa', { code: codeAt(a.secret) });
    expect(none.statusCode).toBe(401);
    expect(none.json().message).toContain('enter your e-mail and password again');
    // A forged pending cookie is not accepted either.
    stranger.cookies.set('atelier_2fa', `${a.id}.${Date.now() + 60_000}`);
    expect((await stranger.post('/api/login/2fa', { code: codeAt(a.secret) })).statusCode).toBe(401);

    const { client } = await passwordStep(t.app, a.email, a.password);
    const wrong = await client.post('/api/login/2fa', { code: codeAt(a.secret, 5) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code[0]).toContain('not correct');
    const empty = await client.post('/api/login/2fa', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.code[0]).toContain('or a recovery code');
  });

  it('issue 21: a recovery code signs in once, then is refused', async () => {
    const a = await enrolled(t.app);
    const recovery = a.recoveryCodes[3]!;
    const first = await passwordStep(t.app, a.email, a.password);
    const used = await first.client.post('/api/login/2fa', { recovery_code: recovery.toUpperCase() });
    expect(used.statusCode).toBe(200);
    expect((await first.client.get('/api/user/profile')).statusCode).toBe(200);

    const second = await passwordStep(t.app, a.email, a.password);
    const again = await second.client.post('/api/login/2fa', { recovery_code: recovery });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.recovery_code[0]).toContain('already used');
    expect((await second.client.get('/api/user/profile')).statusCode).toBe(401);
    expect((await first.client.get('/api/user/security')).json().payload.recovery_codes_left).toBe(9);
  });

  it('issue 21: codes are rate-limited like passwords: after 5 wrong ones even the right code waits', async () => {
    const a = await enrolled(t.app);
    const { client } = await passwordStep(t.app, a.email, a.password);
    for (let i = 0; i < 5; i++) expect((await client.post('/api/login/2fa', { code: codeAt(a.secret, 5) })).statusCode).toBe(422);
    const limited = await client.post('/api/login/2fa', { code: codeAt(a.secret) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await client.get('/api/user/profile')).statusCode).toBe(401);
  });

  it('issue 21: changing the password or e-mail and turning 2FA off need a fresh second factor; step-up refreshes it', async () => {
    const a = await enrolled(t.app);
    await staleSecondFactor(t.app, a.id);
    const change = { cur_password: a.password, new_password: 'amber-lantern-77', repeat_password: 'amber-lantern-77' };
    const refused = await a.client.post('/api/user/change-password', change);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.step_up[0]).toContain('enter a code from your authenticator app');
    const profile = (await a.client.get('/api/user/profile')).json().payload;
    const email = await a.client.put('/api/user/profile', {
      name: profile.name,
      surname: profile.surname,
      email: `new.${a.email}`,
      phone: profile.phone,
      about_me: '',
      hourly_rate: 0,
    });
    expect(email.statusCode).toBe(403);
    expect(email.json().errors.step_up).toBeDefined();

    expect((await a.client.post('/api/user/step-up', { code: codeAt(a.secret, 5) })).statusCode).toBe(422);
    const step = await a.client.post('/api/user/step-up', { code: codeAt(a.secret) });
    expect(step.statusCode).toBe(200);
    expect((await a.client.get('/api/user/security')).json().payload.second_factor_fresh).toBe(true);
    expect((await a.client.post('/api/user/change-password', change)).statusCode).toBe(200);

    // Turning 2FA off: a stale session without a code is asked to step up; with a wrong password, refused.
    await staleSecondFactor(t.app, a.id);
    const noCode = await a.client.post('/api/user/2fa/disable', { password: 'amber-lantern-77' });
    expect(noCode.statusCode).toBe(403);
    expect(noCode.json().errors.step_up).toBeDefined();
    const wrongPassword = await a.client.post('/api/user/2fa/disable', { password: 'not-it-at-all', code: codeAt(a.secret, 1) });
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors.password).toEqual(['The password is incorrect.']);
    const off = await a.client.post('/api/user/2fa/disable', { password: 'amber-lantern-77', code: codeAt(a.secret, 1) });
    expect(off.statusCode).toBe(200);
    expect((await a.client.get('/api/user/security')).json().payload).toMatchObject({ totp_enabled: false, recovery_codes_left: 0 });
    // The password alone signs in again.
    const plain = await passwordStep(t.app, a.email, 'amber-lantern-77');
    expect(plain.res.json().payload?.two_factor_required).toBeUndefined();
    expect((await plain.client.get('/api/user/profile')).statusCode).toBe(200);
  });

  it('issue 21: new payout details need a fresh second factor: refused with step_up and nothing recorded, then accepted after the step-up', async () => {
    const a = await enrolled(t.app);
    await t.app.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, a.id));
    const [offer] = await t.app.db
      .insert(offers)
      .values({
        userId: a.id,
        title: 'Harbour at dawn',
        userPriceMinor: 4000,
        servicePriceMinor: 4000,
        status: 'approved',
        docType: 'image',
        fileType: 'png',
        fileName: 'harbour.png',
        originalPath: `offers/${a.id}/harbour.png`,
      })
      .returning({ id: offers.id });
    const sepa = {
      id: offer!.id,
      paymentType: 'sepa',
      account_number: 'DE89370400440532013000',
      recipient_full_name: 'Ines Duarte',
      ...payoutContact,
    };
    await staleSecondFactor(t.app, a.id);
    const refused = await a.client.post('/api/offer/request-payout/sepa', sepa);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.step_up).toBeDefined();
    expect(await t.app.db.select().from(payouts).where(eq(payouts.offerId, offer!.id))).toHaveLength(0);
    expect((await a.client.post('/api/user/step-up', { recovery_code: a.recoveryCodes[0] })).statusCode).toBe(200);
    const paid = await a.client.post('/api/offer/request-payout/sepa', sepa);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().payload.status).toBe('payout_processing');
  });

  it('issue 21: a user without a second factor changes the password without step-up', async () => {
    const a = await registerPerson(t.app);
    const res = await a.client.post('/api/user/change-password', {
      cur_password: a.password,
      new_password: 'amber-lantern-77',
      repeat_password: 'amber-lantern-77',
    });
    expect(res.statusCode).toBe(200);
    expect((await a.client.post('/api/user/step-up', { code: '123456' })).statusCode).toBe(422);
  });

  it("issue 21: a second user cannot enrol, disable or step up with the first user's codes", async () => {
    const a = await enrolled(t.app);
    const b = await registerPerson(t.app);
    expect((await b.client.post('/api/user/2fa/enable', { code: codeAt(a.secret) })).statusCode).toBe(422);
    expect((await b.client.post('/api/user/step-up', { recovery_code: a.recoveryCodes[0] })).statusCode).toBe(422);
    expect((await b.client.post('/api/user/2fa/disable', { password: b.password, code: codeAt(a.secret) })).statusCode).toBe(422);
    expect((await a.client.get('/api/user/security')).json().payload).toMatchObject({ totp_enabled: true, recovery_codes_left: 10 });
  });
});

describe('staff need a second factor in production (issue 21)', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await createTestApp({ seed: true, env: { NODE_ENV: 'production', PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' } });
  });
  afterAll(() => prod.close());

  it('issue 21: staff without a second factor get 403 on /api/admin with a pointer to set-up, and are let in after enrolment', async () => {
    const staff = await registerStaff(prod.app);
    const refused = await staff.client.get('/api/admin/users');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Staff accounts need two-factor sign-in. Set it up on your dashboard under Security (/dashboard/security), then come back.',
    );
    // A user still gets the ordinary refusal, a guest the 401.
    const user = await registerPerson(prod.app);
    expect((await user.client.get('/api/admin/users')).json().message).toBe('This action is for moderators only.');
    expect((await new TestClient(prod.app).get('/api/admin/users')).statusCode).toBe(401);

    const setup = await staff.client.post('/api/user/2fa/setup');
    expect((await staff.client.post('/api/user/2fa/enable', { code: codeAt(setup.json().payload.secret) })).statusCode).toBe(200);
    expect((await staff.client.get('/api/admin/users')).statusCode).toBe(200);
  });

  it('issue 21: outside production the back office does not ask (local and test starts)', async () => {
    const staff = await registerStaff(t.app);
    expect((await staff.client.get('/api/admin/users')).statusCode).toBe(200);
  });
});
