import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { enqueue } from './jobs';
import { escapeHtml } from './text';

export type Mail = { to: string; subject: string; text: string; html?: string };

export const MAIL_DELIVER = 'mail.deliver';

/**
 * Writes the message to the outbox and enqueues its delivery, with `db`: pass the caller's
 * transaction and the mail exists only if it commits, and leaves only after it has. The outbox row
 * is what developers read at /dev/mail; with SMTP_URL set, the `mail.deliver` job sends it.
 */
export async function sendMail(db: Db, mail: Mail): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mailOutbox)
      .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? '' })
      .returning({ id: mailOutbox.id });
    await enqueue(tx, MAIL_DELIVER, { mailId: row!.id });
  });
}

const transports = new WeakMap<FastifyInstance, Transporter>();

function transportFor(app: FastifyInstance): Transporter | null {
  if (!app.config.smtpUrl) return null;
  let t = transports.get(app);
  if (!t) {
    // Short timeouts: a hung provider must not hold the job worker (or a graceful shutdown) for minutes; the job retries.
    t = nodemailer.createTransport({ url: app.config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    transports.set(app, t);
  }
  return t;
}

/**
 * The `mail.deliver` job: sends one outbox message over SMTP and marks it sent; a failure is kept on
 * the row and retried (30 s, 1, 2, 4 … minutes, for about an hour). Without SMTP the outbox row is the delivery.
 */
export function registerMailDelivery(app: FastifyInstance) {
  app.jobs.register<{ mailId: number }>(
    MAIL_DELIVER,
    async ({ mailId }, { db }) => {
      const transport = transportFor(app);
      if (!transport) return;
      const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, mailId));
      // Already sent by an attempt whose server died before marking the job done: do not send twice.
      if (!mail || mail.sentAt) return;
      try {
        await transport.sendMail({ from: app.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html || undefined });
      } catch (err) {
        await db
          .update(mailOutbox)
          .set({ error: (err as Error).message.slice(0, 500) })
          .where(eq(mailOutbox.id, mailId));
        throw err;
      }
      await db.update(mailOutbox).set({ sentAt: new Date(), error: null }).where(eq(mailOutbox.id, mailId));
    },
    { attempts: 8, backoffMs: 30_000 },
  );
}

/** A plain, readable HTML version of a text message with its one call-to-action link. */
export function mailHtml(lines: string[], action?: { label: string; url: string }): string {
  const body = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;background:#ffd23f;color:#17151f;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="color:#666">${escapeHtml(action.url)}</p>`
    : '';
  return `<div style="font-family:system-ui,sans-serif;max-width:560px">${body}${button}<p style="color:#666">Atelier</p></div>`;
}
