import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { lastMailTo, linkIn, newPerson } from '../../../test/accounts';
import { TestClient, useTestApp } from '../../../test/test-app';

const lines: string[] = [];
const t = useTestApp({ seed: true, logStream: { write: (line) => lines.push(line) } });

describe('logs', () => {
  it('never carry a password, reset token, verification code or session id', async () => {
    const person = newPerson({ password: 'Secret-Pass-Phrase-81', passConfirm: 'Secret-Pass-Phrase-81' });
    const c = new TestClient(t.app);
    expect((await c.post('/api/register', person)).statusCode).toBe(200);
    const verify = linkIn((await lastMailTo(t.app, person.email))!.text);
    expect((await c.get(`/api${verify.pathname}${verify.search}`)).statusCode).toBe(200);
    await c.post('/api/verification/phone/send');
    const code = /(\d{6})/.exec((await lastMailTo(t.app, person.phone))!.text)![1]!;
    expect((await c.post('/api/verification/phone/verify', { code })).statusCode).toBe(200);
    await c.post('/api/logout');
    expect((await c.post('/api/login', { username: person.email, password: 'Wrong-Pass-Phrase-00' })).statusCode).toBe(422);
    expect((await c.post('/api/login', { username: person.email, password: person.password })).statusCode).toBe(200);
    await c.post('/api/user/reset-password', { email: person.email });
    const reset = linkIn((await lastMailTo(t.app, person.email))!.text);
    const token = reset.searchParams.get('token')!;
    const newPassword = 'Another-Pass-Phrase-82';
    expect((await c.post('/api/reset-password', { email: person.email, token, password: newPassword, password_confirmation: newPassword })).statusCode).toBe(
      200,
    );
    const c2 = new TestClient(t.app);
    expect((await c2.post('/api/login', { username: person.email, password: newPassword })).statusCode).toBe(200);

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(10);
    const secrets = [
      person.password,
      'Wrong-Pass-Phrase-00',
      newPassword,
      token,
      encodeURIComponent(token),
      verify.searchParams.get('signature')!,
      c.cookies.get('atelier_session')!,
      c2.cookies.get('atelier_session')!,
      c.cookies.get('XSRF-TOKEN')!,
    ];
    for (const secret of secrets) expect(log, `a secret of length ${secret.length} leaked`).not.toContain(secret);
    // The 6-digit code as a value of its own (not inside a timestamp or a duration).
    expect(log).not.toMatch(new RegExp(`(?<![\\d.])${code}(?![\\d])`));
    // The requests themselves were logged, by path.
    expect(log).toContain('"url":"/api/login"');
  });

  it('keep a failed database write out of the log: no query parameters (hash, e-mail, phone)', async () => {
    // A constraint the register insert trips over, as a broken migration or a full disk would.
    await t.app.db.execute(sql`alter table users add constraint logs_test_refuse check (name <> 'Refused')`);
    try {
      const person = newPerson({ name: 'Refused', phone: '+351912345671', password: 'Failing-Pass-Phrase-17', passConfirm: 'Failing-Pass-Phrase-17' });
      const before = lines.length;
      const res = await new TestClient(t.app).post('/api/register', person);
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ status: 'ERROR', message: 'Something went wrong on our side. Please try again later.', code: 'server.internal' });
      const log = lines.slice(before).join('\n');
      expect(log).toContain('database error');
      for (const secret of [person.email, person.phone, person.password, '$argon2id', 'insert into']) {
        expect(log, `"${secret}" reached the log`).not.toContain(secret);
      }
    } finally {
      await t.app.db.execute(sql`alter table users drop constraint logs_test_refuse`);
    }
  });
});
