import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, newPerson } from '../../test/accounts';
import { createTestApp, type TestApp, TestClient } from '../../test/test-app';

/** A real SMTP receiver on loopback: the app delivers to it over SMTP, as it would to a mail provider. */
const received: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let port = 0;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  port = (smtp.server.address() as { port: number }).port;
  t = await createTestApp({ seed: true, env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Atelier <hello@atelier.example>' } });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('mail over SMTP', () => {
  it('delivers the verification message of a new account to the SMTP server', async () => {
    const person = newPerson();
    expect((await new TestClient(t.app).post('/api/register', person)).statusCode).toBe(200);
    const mail = received.find((m) => m.to.includes(person.email));
    expect(mail).toBeDefined();
    expect(mail!.raw).toContain('Subject: Confirm your e-mail address');
    expect(mail!.raw).toContain('From: Atelier <hello@atelier.example>');
    const unfolded = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(linkIn(unfolded.slice(unfolded.indexOf('http'))).pathname).toMatch(/^\/email\/verify\/\d+\/[a-f0-9]{40}$/);
  });
});
