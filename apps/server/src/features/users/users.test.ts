import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { multipartFile, registerUser, signIn } from '../../../test/accounts';
import { balanceMinor, fund, userIdByEmail } from '../../../test/commerce';
import { TestClient, useTestApp } from '../../../test/test-app';
import { products, users } from '../../db/schema';

const t = useTestApp({ seed: true });

const png = (w: number, h: number) =>
  sharp({ create: { width: w, height: h, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer();

describe('protected calls', () => {
  it('answer 401 to a guest', async () => {
    const guest = new TestClient(t.app);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/user/profile'],
      ['PUT', '/api/user/profile', { name: 'A', surname: 'B', email: 'a@b.co', phone: '' }],
      ['POST', '/api/user/change-password', { cur_password: 'x', new_password: 'yyyyyyyy', repeat_password: 'yyyyyyyy' }],
      ['DELETE', '/api/user/delete', { password: 'x' }],
      ['POST', '/api/user/upload-avatar'],
      ['GET', '/api/user/prompts'],
      ['POST', '/api/email/verify/resend'],
    ];
    for (const [method, url, body] of calls) {
      const res = await guest.request(method as 'GET', url, { body });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ status: 'ERROR', message: 'Please sign in to continue.' });
    }
  });
});

describe('profile', () => {
  it('updates the own profile and asks to verify a changed e-mail', async () => {
    const { client, person } = await registerUser(t.app);
    const res = await client.put('/api/user/profile', {
      name: 'Inês',
      surname: 'Duarte Silva',
      email: `new.${person.email}`,
      phone: '+44 20 7183 8750',
      about_me: 'Watercolours.',
      hourly_rate: 42.5,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/Please confirm your new e-mail address/);
    expect(res.json().payload).toMatchObject({
      name: 'Inês',
      email: `new.${person.email}`,
      phone: '+442071838750',
      hourly_rate: 42.5,
      is_email_verified: false,
    });
  });

  it('rejects bad input with field messages', async () => {
    const { client } = await registerUser(t.app);
    const res = await client.put('/api/user/profile', { name: '', surname: 'X', email: 'nope', phone: '12', hourly_rate: -3 });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.name[0]).toBe('The name field is required.');
    expect(errors.email[0]).toBe('Please enter a valid e-mail address.');
    expect(errors.hourly_rate[0]).toBe('The hourly rate cannot be negative.');
  });

  it('refuses an e-mail or nickname another user has', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const bProfile = (await b.client.get('/api/user/profile')).json().payload;
    const res = await a.client.put('/api/user/profile', { name: 'A', surname: 'A', email: b.person.email, phone: '', nickname: bProfile.nickname });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email[0]).toBe('An account with this e-mail already exists.');
    expect(res.json().errors.nickname[0]).toBe('This nickname is taken. Please choose another.');
  });

  it('never lets a second user read or change the first user’s private profile', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const aProfile = (await a.client.get('/api/user/profile')).json().payload;
    // B's calls always act on B: there is no way to name another user's private profile.
    const bSees = (await b.client.get('/api/user/profile')).json().payload;
    expect(bSees.id).not.toBe(aProfile.id);
    await b.client.put('/api/user/profile', { name: 'Bee', surname: 'B', email: b.person.email, phone: '', id: aProfile.id });
    expect((await a.client.get('/api/user/profile')).json().payload.name).toBe('Ines');
    // The public profile of A shows no e-mail or phone.
    const pub = (await b.client.get(`/api/user/public-profile/${aProfile.id}`)).json().payload;
    expect(pub.nickname).toBe(aProfile.nickname);
    expect(JSON.stringify(pub)).not.toContain(a.person.email);
    expect(pub).not.toHaveProperty('email');
    expect(pub).not.toHaveProperty('phone');
  });

  it('serves a public profile by nickname and 404 for an unknown one', async () => {
    const res = await new TestClient(t.app).get('/api/user/public-profile/sofia');
    expect(res.json().payload).toMatchObject({ name: 'Sofia', surname: 'Marin', nickname: 'sofia' });
    expect(res.json().payload.products_count).toBeGreaterThan(0);
    expect((await new TestClient(t.app).get('/api/user/public-profile/nobody-at-all')).statusCode).toBe(404);
  });
});

describe('change password', () => {
  it('checks the current password and ends the other sessions', async () => {
    const { client, person } = await registerUser(t.app);
    const other = (await signIn(t.app, person.email, person.password)).client;
    const wrong = await client.post('/api/user/change-password', {
      cur_password: 'not-it-at-all',
      new_password: 'cobalt-river-9',
      repeat_password: 'cobalt-river-9',
    });
    expect(wrong.json().errors.cur_password[0]).toBe('The current password is incorrect.');
    const mismatch = await client.post('/api/user/change-password', {
      cur_password: person.password,
      new_password: 'cobalt-river-9',
      repeat_password: 'cobalt-river-8',
    });
    expect(mismatch.json().errors.repeat_password[0]).toBe('New passwords do not match');
    const empty = await client.post('/api/user/change-password', { cur_password: '', new_password: '', repeat_password: '' });
    expect(empty.json().errors.cur_password[0]).toBe('Please fill in all password fields');
    const done = await client.post('/api/user/change-password', {
      cur_password: person.password,
      new_password: 'cobalt-river-9',
      repeat_password: 'cobalt-river-9',
    });
    expect(done.json()).toEqual({ status: 'OK', message: 'Password changed successfully!' });
    expect((await client.get('/api/is-auth')).json().payload.authenticated).toBe(true);
    expect((await other.get('/api/is-auth')).json().payload.authenticated).toBe(false);
    expect((await signIn(t.app, person.email, 'cobalt-river-9')).res.statusCode).toBe(200);
    expect((await signIn(t.app, person.email, person.password)).res.statusCode).toBe(422);
  });
});

describe('avatar', () => {
  it('re-encodes an image to a 150x150 WebP that is served publicly', async () => {
    const { client } = await registerUser(t.app);
    const file = multipartFile('avatar', 'me.png', 'image/png', await png(640, 480));
    const res = await client.request('POST', '/api/user/upload-avatar', file);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Avatar uploaded successfully!');
    const url = res.json().payload.avatar_path as string;
    expect(url).toMatch(/^\/storage\/avatars\/\d+\/[a-f0-9]+-150\.webp$/);
    const img = await t.app.inject({ url });
    const meta = await sharp(img.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 150, 150]);
    const large = await sharp((await t.app.inject({ url: res.json().payload.avatar_url_large })).rawPayload).metadata();
    expect([large.width, large.height]).toEqual([300, 300]);
    expect(meta.exif).toBeUndefined();
  });

  it('refuses a file over 2 MB', async () => {
    const { client } = await registerUser(t.app);
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const res = await client.request('POST', '/api/user/upload-avatar', multipartFile('avatar', 'big.png', 'image/png', big));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.avatar[0]).toBe('Image size should be less than 2MB');
  });

  it('refuses a non-image renamed .png', async () => {
    const { client } = await registerUser(t.app);
    const res = await client.request(
      'POST',
      '/api/user/upload-avatar',
      multipartFile('avatar', 'evil.png', 'image/png', Buffer.from('#!/bin/sh\necho not an image\n')),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.avatar[0]).toBe('Please select an image file');
  });

  it('refuses an SVG carrying a script', async () => {
    const { client } = await registerUser(t.app);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
    const res = await client.request('POST', '/api/user/upload-avatar', multipartFile('avatar', 'pic.png', 'image/png', svg));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.avatar[0]).toBe('Please select an image file');
    const before = (await client.get('/api/user/profile')).json().payload.avatar_path;
    expect(before).toBeNull();
  });
});

describe('delete account', () => {
  it('needs the password, then anonymises the account and keeps its products', async () => {
    const seller = (await signIn(t.app, 'seller@example.com', 'atelier-demo')).client;
    const [sofia] = await t.app.db.select().from(users).where(eq(users.nickname, 'sofia'));
    const productsBefore = await t.app.db.select().from(products).where(eq(products.authorId, sofia!.id));
    expect(productsBefore.length).toBeGreaterThan(0);

    const wrong = await seller.delete('/api/user/delete', { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password[0]).toBe('The password is incorrect.');

    const res = await seller.delete('/api/user/delete', { password: 'atelier-demo' });
    expect(res.json()).toEqual({ status: 'OK', message: 'Account deleted successfully!' });
    expect((await seller.get('/api/is-auth')).json().payload.authenticated).toBe(false);
    expect((await signIn(t.app, 'seller@example.com', 'atelier-demo')).res.statusCode).toBe(422);

    const [after] = await t.app.db.select().from(users).where(eq(users.id, sofia!.id));
    expect(after).toMatchObject({ name: 'Deleted', surname: 'user', phone: '', aboutMe: '', avatarPath: null });
    expect(after!.email).not.toContain('seller@example.com');
    expect(after!.deletedAt).not.toBeNull();
    expect((await t.app.db.select().from(products).where(eq(products.authorId, sofia!.id))).length).toBe(productsBefore.length);
    expect((await new TestClient(t.app).get('/api/user/public-profile/sofia')).statusCode).toBe(404);
  });
});

describe('Operations (issue 17): deleting an account with money on it', () => {
  it('is refused with a 422 that says how much is left and how to spend or withdraw it; at zero it goes through', async () => {
    const { client, person } = await registerUser(t.app);
    const userId = await userIdByEmail(t.app, person.email);
    await fund(t.app, userId, 1234);

    const refused = await client.delete('/api/user/delete', { password: person.password });
    expect(refused.statusCode).toBe(422);
    const message = refused.json().message as string;
    expect(message).toBe(
      'Your account still holds €12.34 (your Atelier Credits balance). Spend it in the shop on works, packs or chat deals, or write to support@atelier.example to have it paid out to you; then delete your account.',
    );
    expect(refused.json().errors.balance).toEqual([message]);
    // Nothing changed: still signed in, the money still there.
    expect((await client.get('/api/is-auth')).json().payload.authenticated).toBe(true);
    expect(await balanceMinor(t.app, userId)).toBe(1234);
    expect((await t.app.db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)))[0]!.deletedAt).toBeNull();

    await fund(t.app, userId, -1234); // spent, as a purchase would
    const res = await client.delete('/api/user/delete', { password: person.password });
    expect(res.json()).toEqual({ status: 'OK', message: 'Account deleted successfully!' });
  });
});

describe('malformed input', () => {
  it('refuses a NUL character in a public profile key with 422, and answers 404 for an id beyond the range of ids', async () => {
    const guest = new TestClient(t.app);
    const nul = await guest.get('/api/user/public-profile/a%00b');
    expect(nul.statusCode).toBe(422);
    expect(nul.json().errors).toEqual({ id: ['The profile may not contain a NUL character.'] });
    for (const key of ['9223372036854775808', '123456789012345678901234']) {
      const res = await guest.get(`/api/user/public-profile/${key}`);
      expect(res.statusCode, key).toBe(404);
      expect(res.json()).toEqual({ status: 'ERROR', message: 'This creator does not exist.' });
    }
  });

  it('refuses a NUL character in the profile with a message per field, and changes nothing', async () => {
    const { client, person } = await registerUser(t.app);
    const res = await client.put('/api/user/profile', { name: 'In\u0000es', surname: 'Duarte', email: person.email, phone: '', about_me: 'Hi \u0000' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      name: ['The name may not contain a NUL character.'],
      about_me: ['The about me may not contain a NUL character.'],
    });
    expect((await client.get('/api/user/profile')).json().payload.name).toBe('Ines');
  });

  it('answers an avatar upload whose multipart body has no boundary or ends early with 400', async () => {
    const { client } = await registerUser(t.app);
    const { payload, headers } = multipartFile('avatar', 'a.png', 'image/png', await png(20, 20));
    const cases = [
      { payload, contentType: 'multipart/form-data' },
      { payload: payload.subarray(0, 60), contentType: headers['content-type'] },
    ];
    for (const { payload: body, contentType } of cases) {
      const res = await client.request('POST', '/api/user/upload-avatar', { payload: body, headers: { 'content-type': contentType } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 'ERROR', message: 'The multipart body could not be read: it has no boundary or ends early.' });
    }
  });
});
