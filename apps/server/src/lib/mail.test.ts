import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, linkIn, newPerson } from '../../test/accounts';
import { createTestApp, type TestApp, TestClient } from '../../test/test-app';
import { jobs } from '../db/schema';
import { MAIL_DELIVER, sendMail } from './mail';

/** A real SMTP receiver on loopback: the app delivers to it over SMTP, as it would to a mail provider. */
const received: { to: string[]; raw: string }[] = [];
/** Recipients the receiver turns away once with a temporary failure (451), as a busy provider does. */
const busyOnce = new Set<string>();
let smtp: SMTPServer;
let port = 0;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (busyOnce.delete(address.address)) {
        const err = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
        return callback(err);
      }
      callback();
    },
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

const receivedBy = (address: string) => received.filter((m) => m.to.includes(address));
const mailJobOf = async (mailId: number) =>
  (
    await t.app.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, MAIL_DELIVER), eq(jobs.payload, { mailId })))
  )[0]!;

describe('mail over SMTP', () => {
  it('delivers the verification message of a new account to the SMTP server once the job queue runs', async () => {
    const person = newPerson();
    expect((await new TestClient(t.app).post('/api/register', person)).statusCode).toBe(200);
    // The request only wrote the outbox row and its job; delivery happens after commit.
    expect((await lastMailTo(t.app, person.email))!.sentAt).toBeNull();
    expect(receivedBy(person.email)).toHaveLength(0);

    expect(await t.app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const [mail] = receivedBy(person.email);
    expect(mail).toBeDefined();
    expect(mail!.raw).toContain('Subject: Confirm your e-mail address');
    expect(mail!.raw).toContain('From: Atelier <hello@atelier.example>');
    const unfolded = mail!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(linkIn(unfolded.slice(unfolded.indexOf('http'))).pathname).toMatch(/^\/email\/verify\/\d+\/[a-f0-9]{40}$/);
    expect((await lastMailTo(t.app, person.email))!.sentAt).toBeInstanceOf(Date);

    // Running the queue again sends nothing twice.
    await t.app.jobs.runDue({ at: new Date(Date.now() + 86_400_000) });
    expect(receivedBy(person.email)).toHaveLength(1);
  });

  it('sends nothing for a mail written in a transaction that rolls back', async () => {
    const to = `rollback.${Date.now()}@example.com`;
    await expect(
      t.app.db.transaction(async (tx) => {
        await sendMail(tx, { to, subject: 'Your receipt', text: 'Thank you for your order.' });
        throw new Error('payment declined');
      }),
    ).rejects.toThrow('payment declined');
    await t.app.jobs.runDue();
    expect(await lastMailTo(t.app, to)).toBeUndefined();
    expect(receivedBy(to)).toHaveLength(0);
  });

  it('keeps a refused delivery on the outbox row and retries it later', async () => {
    const to = `busy.${Date.now()}@example.com`;
    busyOnce.add(to);
    await t.app.db.transaction(async (tx) => {
      await sendMail(tx, { to, subject: 'Your receipt', text: 'Thank you for your order.' });
    });

    await t.app.jobs.runDue();
    const first = (await lastMailTo(t.app, to))!;
    expect(first.sentAt).toBeNull();
    expect(first.error).toMatch(/451|busy/i);
    expect(receivedBy(to)).toHaveLength(0);
    const job = await mailJobOf(first.id);
    expect(job).toMatchObject({ state: 'pending', attempts: 1 });
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000); // not hammering the provider

    expect(await t.app.jobs.runDue()).toBe(0);
    expect(await t.app.jobs.runDue({ at: new Date(Date.now() + 60_000) })).toBe(1);
    expect(receivedBy(to)).toHaveLength(1);
    expect(receivedBy(to)[0]!.raw).toContain('Subject: Your receipt');
    const sent = (await lastMailTo(t.app, to))!;
    expect(sent.sentAt).toBeInstanceOf(Date);
    expect(sent.error).toBeNull();
    expect(await mailJobOf(first.id)).toMatchObject({ state: 'done', attempts: 2 });
  });
});

describe('mail without SMTP', () => {
  it('leaves the message in the outbox, which is the delivery in development', async () => {
    const dev = await createTestApp();
    try {
      const to = `dev.${Date.now()}@example.com`;
      await sendMail(dev.app.db, { to, subject: 'Welcome', text: 'Hello' });
      // The delivery job runs (beside the sweeps every app schedules at start) and leaves the row unsent.
      expect(await dev.app.jobs.runDue()).toBeGreaterThan(0);
      const row = (await lastMailTo(dev.app, to))!;
      expect(row).toMatchObject({ subject: 'Welcome', sentAt: null, error: null });
      const [delivery] = await dev.app.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.name, MAIL_DELIVER), eq(jobs.payload, { mailId: row.id })));
      expect(delivery).toMatchObject({ state: 'done', attempts: 1 });
      const page = await dev.app.inject({ method: 'GET', url: '/dev/mail' });
      expect(page.body).toContain(to);
    } finally {
      await dev.close();
    }
  });
});
