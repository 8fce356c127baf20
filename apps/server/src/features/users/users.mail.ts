import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { mailHtml, sendMail } from '../../lib/mail';
import type { UserRow } from './users.queries';

/** Account mail: the e-mail verification link (signed and expiring, so no table is needed). */
export const EMAIL_LINK_MINUTES = 60;
const emailHash = (email: string) => createHash('sha1').update(email.toLowerCase()).digest('hex');

function sign(secret: string, data: string) {
  return createHmac('sha256', secret).update(data).digest('hex');
}

export function emailVerificationPath(secret: string, user: UserRow, now = Date.now()): string {
  const hash = emailHash(user.email);
  const expires = Math.floor(now / 1000) + EMAIL_LINK_MINUTES * 60;
  const signature = sign(secret, `verify:${user.id}:${hash}:${expires}`);
  return `/email/verify/${user.id}/${hash}?expires=${expires}&signature=${signature}`;
}

export type LinkCheck = 'ok' | 'invalid' | 'expired';

export function checkEmailVerification(secret: string, user: UserRow | undefined, hash: string, expires: number, signature: string): LinkCheck {
  if (!user) return 'invalid';
  const expected = sign(secret, `verify:${user.id}:${hash}:${expires}`);
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  if (a.length !== b.length || !timingSafeEqual(a, b) || hash !== emailHash(user.email)) return 'invalid';
  if (expires * 1000 < Date.now()) return 'expired';
  return 'ok';
}

/** Sends the verification link; inside the caller's transaction when given one (delivered after commit). */
export async function sendVerificationMail(app: FastifyInstance, user: UserRow, db: Db = app.db) {
  const url = app.config.publicUrl + emailVerificationPath(app.config.sessionSecret, user);
  await sendMail(db, {
    to: user.email,
    subject: 'Confirm your e-mail address',
    text: `Hello ${user.name},\n\nPlease confirm your e-mail address for Atelier by opening this link within ${EMAIL_LINK_MINUTES} minutes:\n${url}\n\nIf you did not create an account, ignore this message.`,
    html: mailHtml([`Hello ${user.name},`, `Please confirm your e-mail address for Atelier within ${EMAIL_LINK_MINUTES} minutes.`], {
      label: 'Confirm e-mail',
      url,
    }),
  });
}
