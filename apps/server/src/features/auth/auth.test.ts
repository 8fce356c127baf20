import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo, linkIn, newPerson, registerUser, signIn } from '../../../test/accounts';
import { TestClient, useTestApp } from '../../../test/test-app';
import { sessions, users } from '../../db/schema';
import { setSetting } from '../../lib/settings';

const t = useTestApp({ seed: true });

describe('register', () => {
  it('creates the account, signs it in and mails a verification link', async () => {
    const { client, person } = await registerUser(t.app);
    expect((await client.get('/api/is-auth')).json()).toEqual({ status: 'OK', payload: { authenticated: true } });
    const profile = (await client.get('/api/user/profile')).json().payload;
    expect(profile).toMatchObject({ name: 'Ines', surname: 'Duarte', email: person.email, phone: '+351912345678', is_email_verified: false, role: 'user' });
    expect(profile.nickname).toMatch(/^inesduarte\d*$/);
    expect(profile).not.toHaveProperty('password_hash');
    expect(profile).not.toHaveProperty('passwordHash');
    const mail = await lastMailTo(t.app, person.email);
    expect(mail?.subject).toBe('Confirm your e-mail address');
    expect(linkIn(mail!.text).pathname).toMatch(/^\/email\/verify\/\d+\/[a-f0-9]{40}$/);
  });

  it('names every missing field with the SPEC §5 field names', async () => {
    const res = await new TestClient(t.app).post('/api/register', {});
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    for (const field of ['name', 'surname', 'email', 'phone', 'password', 'passConfirm', 'terms_agreed']) expect(errors[field]?.[0], field).toBeTruthy();
    expect(errors.terms_agreed[0]).toBe('You must accept the terms and the privacy policy.');
  });

  it('rejects a malformed e-mail and phone, a short or common password, and a mismatch', async () => {
    const c = new TestClient(t.app);
    const bad = await c.post('/api/register', newPerson({ email: 'not-an-email', passConfirm: 'different-one' }));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.email[0]).toBe('Please enter a valid e-mail address.');
    expect(bad.json().errors.passConfirm[0]).toBe('The passwords do not match.');
    // Issue 31: each field's message travels with its key too, for the web app to translate.
    expect(bad.json().codes).toMatchObject({ email: ['validation.email'], passConfirm: ['validation.passwords_differ'] });
    const phone = await c.post('/api/register', newPerson({ phone: '+351 12' }));
    expect(phone.json().errors.phone[0]).toBe('Please enter a valid phone number with its country code.');
    const short = await c.post('/api/register', newPerson({ password: 'abc12', passConfirm: 'abc12' }));
    expect(short.json().errors.password[0]).toBe('The password must be at least 8 characters long.');
    expect(short.json().codes.password[0]).toBe('validation.password_short?min=8');
    const common = await c.post('/api/register', newPerson({ password: 'password123', passConfirm: 'password123' }));
    expect(common.json().errors.password[0]).toMatch(/too common/);
  });

  it('refuses a duplicate e-mail, whatever its case, and writes nothing', async () => {
    const { person } = await registerUser(t.app);
    const before = await t.app.db.select().from(users);
    const res = await new TestClient(t.app).post('/api/register', newPerson({ email: person.email.toUpperCase() }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe('An account with this e-mail already exists.');
    expect((await t.app.db.select().from(users)).length).toBe(before.length);
  });

  it('is closed with 403 when the setting is_reg_enabled is off', async () => {
    await setSetting(t.app.db, 'is_reg_enabled', false);
    try {
      const res = await new TestClient(t.app).post('/api/register', newPerson());
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Registration is currently closed. Please try again later.');
    } finally {
      await setSetting(t.app.db, 'is_reg_enabled', true);
    }
  });

  it('needs the XSRF token (419)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', payload: newPerson() });
    expect(res.statusCode).toBe(419);
  });
});

describe('login and logout', () => {
  it('signs in the demo buyer and rotates the session id', async () => {
    const c = new TestClient(t.app);
    await c.csrf();
    const before = c.cookies.get('atelier_session');
    const res = await c.post('/api/login', { username: 'Buyer@Example.com', password: 'atelier-demo' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Welcome back, Bianca!');
    expect(c.cookies.get('atelier_session')).not.toBe(before);
    expect((await c.get('/api/is-auth')).json().payload.authenticated).toBe(true);
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const wrong = (await signIn(t.app, 'seller@example.com', 'nope-nope-nope')).res;
    const unknown = (await signIn(t.app, 'nobody-here@example.com', 'nope-nope-nope')).res;
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('The e-mail or password is incorrect.');
    // issue 18 conformance: the field message is the same sentence, so a form shows one text.
    expect(wrong.json().errors).toEqual({ username: ['The e-mail or password is incorrect.'] });
  });

  it('limits failed attempts per account with 429 and says when to retry', async () => {
    const { person } = await registerUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn(t.app, person.email, 'wrong-password-x')).res.statusCode);
    expect(statuses.slice(0, 5)).toEqual([422, 422, 422, 422, 422]);
    const blocked = (await signIn(t.app, person.email, person.password)).res;
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ seconds\.$/);
    expect(blocked.json().code).toMatch(/^rate\.retry_seconds\?what=rate\.sign_in&n=\d+$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('destroys the session on logout', async () => {
    const { client } = await registerUser(t.app);
    const sessionCookie = client.cookies.get('atelier_session')!;
    const res = await client.post('/api/logout');
    expect(res.statusCode).toBe(200);
    expect((await client.get('/api/is-auth')).json().payload.authenticated).toBe(false);
    // The old cookie no longer opens anything.
    const replay = await t.app.inject({ url: '/api/user/profile', headers: { cookie: `atelier_session=${sessionCookie}` } });
    expect(replay.statusCode).toBe(401);
  });

  it('validates the login payload', async () => {
    const res = await new TestClient(t.app).post('/api/login', { username: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.username[0]).toBe('Please enter a valid e-mail address.');
    expect(res.json().errors.password[0]).toBe('The password field is required.');
  });
});

describe('e-mail verification', () => {
  it('verifies with the mailed link, then reports already verified', async () => {
    const { client, person } = await registerUser(t.app);
    const link = linkIn((await lastMailTo(t.app, person.email))!.text);
    const first = await client.get(`/api${link.pathname}${link.search}`);
    expect(first.statusCode).toBe(200);
    expect(first.json().payload.already_verified).toBe(false);
    expect((await client.get('/api/user/profile')).json().payload.is_email_verified).toBe(true);
    const again = await new TestClient(t.app).get(`/api${link.pathname}${link.search}`);
    expect(again.json().payload.already_verified).toBe(true);
  });

  it('refuses a tampered link', async () => {
    const { person } = await registerUser(t.app);
    const link = linkIn((await lastMailTo(t.app, person.email))!.text);
    link.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 999));
    const res = await new TestClient(t.app).get(`/api${link.pathname}${link.search}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This verification link is invalid. Please ask for a new one.');
  });

  it('blocks an unverified user with the SPEC §6 message when verification is required', async () => {
    const { client, person } = await registerUser(t.app);
    await setSetting(t.app.db, 'is_email_verification_enabled', true);
    try {
      const blocked = await client.post('/api/verification/phone/send');
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toEqual({ status: 'ERROR', message: 'Your email address is not verified.', code: 'auth.email_not_verified' });
      expect((await client.get('/api/user/prompts')).statusCode).toBe(403);
      // The profile itself and the resend stay reachable, so the user can fix it.
      expect((await client.get('/api/user/profile')).statusCode).toBe(200);
      expect((await client.post('/api/email/verify/resend')).statusCode).toBe(200);
      const link = linkIn((await lastMailTo(t.app, person.email))!.text);
      await client.get(`/api${link.pathname}${link.search}`);
      expect((await client.post('/api/verification/phone/send')).statusCode).toBe(200);
    } finally {
      await setSetting(t.app.db, 'is_email_verification_enabled', false);
    }
  });

  it('resends a link, rate-limited', async () => {
    const { client } = await registerUser(t.app);
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await client.post('/api/email/verify/resend')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

describe('password reset', () => {
  it('mails a single-use link that sets a new password and ends other sessions', async () => {
    const { client: oldBrowser, person } = await registerUser(t.app);
    const guest = new TestClient(t.app);
    const ask = await guest.post('/api/user/reset-password', { email: person.email });
    expect(ask.json().message).toMatch(/^If an account exists for that e-mail/);
    const link = linkIn((await lastMailTo(t.app, person.email))!.text);
    const token = link.searchParams.get('token')!;
    const done = await guest.post('/api/reset-password', { email: person.email, token, password: 'new-lantern-77', password_confirmation: 'new-lantern-77' });
    expect(done.statusCode).toBe(200);
    expect((await oldBrowser.get('/api/is-auth')).json().payload.authenticated).toBe(false);
    expect((await signIn(t.app, person.email, 'new-lantern-77')).res.statusCode).toBe(200);
    const reuse = await guest.post('/api/reset-password', {
      email: person.email,
      token,
      password: 'other-lantern-88',
      password_confirmation: 'other-lantern-88',
    });
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json().errors.token[0]).toMatch(/invalid or has expired/);
  });

  it('does not tell whether an e-mail exists', async () => {
    const guest = new TestClient(t.app);
    const known = await guest.post('/api/user/reset-password', { email: 'seller@example.com' });
    const unknown = await guest.post('/api/user/reset-password', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.json()).toEqual(unknown.json());
  });
});

describe('phone verification', () => {
  it('issue 31: "Our team reviews new sellers" is said to sellers only', async () => {
    const verify = async (client: TestClient, phone: string) => {
      await client.post('/api/verification/phone/send');
      const code = /(\d{6})/.exec((await lastMailTo(t.app, phone))!.text)![1]!;
      return (await client.post('/api/verification/phone/verify', { code })).json().message;
    };
    const buyer = await registerUser(t.app, { phone: '+351912000431' });
    expect(await verify(buyer.client, '+351912000431')).toBe('Your phone number is verified.');

    // The demo seller has works in the shop.
    const [seller] = await t.app.db.update(users).set({ phoneVerifiedAt: null }).where(eq(users.email, 'seller@example.com')).returning({ phone: users.phone });
    const { client } = await signIn(t.app, 'seller@example.com', 'atelier-demo');
    expect(await verify(client, seller!.phone)).toBe('Your phone number is verified. Our team reviews new sellers within 1-2 business days.');
  });

  it('verifies the phone with the 6-digit code and locks after 5 wrong codes', async () => {
    const { client, person } = await registerUser(t.app);
    expect((await client.post('/api/verification/phone/send')).json().message).toMatch(/^We have sent a 6-digit code to \+351/);
    const sms = await lastMailTo(t.app, person.phone);
    const code = /(\d{6})/.exec(sms!.text)![1]!;
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await client.post('/api/verification/phone/verify', { code: wrongCode })).json().errors.code[0]).toBe(
      'This code is not correct. Please check it and try again.',
    );
    expect((await client.post('/api/verification/phone/verify', { code })).statusCode).toBe(200);
    expect((await client.get('/api/user/profile')).json().payload.is_phone_verified).toBe(true);

    const other = await registerUser(t.app, { phone: '+442071838750' });
    await other.client.post('/api/verification/phone/send');
    const otherCode = /(\d{6})/.exec((await lastMailTo(t.app, '+442071838750'))!.text)![1]!;
    const bad = otherCode === '123456' ? '654321' : '123456';
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await other.client.post('/api/verification/phone/verify', { code: bad })).json().errors.code[0]);
    expect(answers.at(-1)).toBe('Too many wrong codes. Please ask for a new one.');
    expect((await other.client.post('/api/verification/phone/verify', { code: otherCode })).statusCode).toBe(422);
  });

  it('needs a signed-in user', async () => {
    const guest = new TestClient(t.app);
    expect((await guest.post('/api/verification/phone/send')).statusCode).toBe(401);
    expect((await guest.post('/api/verification/phone/verify', { code: '123456' })).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('expire after 2 hours idle', async () => {
    const { client } = await registerUser(t.app);
    await t.app.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 2 * 3600_000 - 1000) });
    expect((await client.get('/api/is-auth')).json().payload.authenticated).toBe(false);
  });
});

describe('malformed input', () => {
  it('refuses a NUL character in the sign-up with a message per field, and creates no account', async () => {
    const person = newPerson({ name: 'Ines\u0000', surname: '\u0000' });
    const res = await new TestClient(t.app).post('/api/register', person);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['The name may not contain a NUL character.'],
      surname: ['The surname may not contain a NUL character.'],
    });
    expect((await signIn(t.app, person.email, person.password)).res.statusCode).toBe(422);
  });

  it('signs up a person whose name is only digits (the nickname is never read as an id)', async () => {
    const { client } = await registerUser(t.app, { name: '123456789012345678901234', surname: '5' });
    const profile = (await client.get('/api/user/profile')).json().payload;
    expect(profile.nickname).toBe('123456789012345678901234');
    const pub = await new TestClient(t.app).get(`/api/user/public-profile/${profile.nickname}`);
    expect(pub.json().payload.id).toBe(profile.id);
  });

  it('refuses a verification link whose user id is beyond the range of ids with 422', async () => {
    const res = await new TestClient(t.app).get(`/api/email/verify/9223372036854775808/${'a'.repeat(40)}?expires=1&signature=${'a'.repeat(64)}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ id: ['The user id must be a whole number from 1 to 9007199254740991.'] });
  });
});
