import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { mailOutbox } from '../db/schema';

export type Mail = { to: string; subject: string; text: string; html?: string };

const transports = new WeakMap<FastifyInstance, Transporter>();

function transportFor(app: FastifyInstance): Transporter | null {
  if (!app.config.smtpUrl) return null;
  let t = transports.get(app);
  if (!t) {
    t = nodemailer.createTransport(app.config.smtpUrl);
    transports.set(app, t);
  }
  return t;
}

/**
 * Every message is written to the outbox first (so nothing is lost and developers can read it at
 * /dev/mail), then delivered over SMTP when SMTP_URL is set. A delivery failure is recorded, not thrown:
 * the user's action (sign-up, reset request) has already succeeded.
 */
export async function sendMail(app: FastifyInstance, mail: Mail): Promise<void> {
  const [row] = await app.db
    .insert(mailOutbox)
    .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? '' })
    .returning({ id: mailOutbox.id });
  const transport = transportFor(app);
  if (!transport) return;
  try {
    await transport.sendMail({ from: app.config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html || undefined });
    await app.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row!.id));
  } catch (err) {
    app.log.error({ err: { message: (err as Error).message }, mailId: row!.id }, 'mail delivery failed');
    await app.db
      .update(mailOutbox)
      .set({ error: (err as Error).message.slice(0, 500) })
      .where(eq(mailOutbox.id, row!.id));
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A plain, readable HTML version of a text message with its one call-to-action link. */
export function mailHtml(lines: string[], action?: { label: string; url: string }): string {
  const body = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;background:#ffd23f;color:#17151f;border-radius:999px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="color:#666">${escapeHtml(action.url)}</p>`
    : '';
  return `<div style="font-family:system-ui,sans-serif;max-width:560px">${body}${button}<p style="color:#666">Atelier</p></div>`;
}
