import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { deposits } from '../src/db/schema';
import { paymentProviderFor } from '../src/features/payments/card-payments';
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from '../src/features/payments/sandbox/sandbox-provider';
import { registerUser } from './accounts';
import { userIdByEmail } from './commerce';
import type { TestClient } from './test-app';

/** A registered, signed-in person with their id. */
export async function chatPerson(app: FastifyInstance) {
  const { client, person } = await registerUser(app);
  return { client, id: await userIdByEmail(app, person.email), email: person.email };
}

/** A buyer, a creator, and the chat the buyer opened with the creator. */
export async function chatPair(app: FastifyInstance) {
  const buyer = await chatPerson(app);
  const creator = await chatPerson(app);
  const res = await buyer.client.post('/api/chat', { recipient_id: creator.id });
  if (res.statusCode !== 200) throw new Error(`opening the chat answered ${res.statusCode}`);
  return { buyer, creator, chatId: res.json().payload.id as number };
}

export const testPng = (background = { r: 200, g: 40, b: 90 }) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer();

/** A multipart body with text fields and one file, as a browser's FormData sends it. */
export function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----chat${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachment"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const sendChat = (c: TestClient, chatId: number, body: unknown) => c.post(`/api/chat/${chatId}/messages`, body);
export const sendChatForm = (c: TestClient, chatId: number, f: ReturnType<typeof multipart>) => c.request('POST', `/api/chat/${chatId}/messages`, f);

/** The sandbox provider reporting a paid card payment (the deposit's amount and currency), signed as the webhook route expects. */
export async function cardPaidWebhook(app: FastifyInstance, depositId: number, eventId = `evt_${depositId}_${Math.random().toString(16).slice(2)}`) {
  const [deposit] = await app.db.select({ minor: deposits.currencyAmountMinor, currency: deposits.currency }).from(deposits).where(eq(deposits.id, depositId));
  const { raw, signature } = signSandboxEvent(app.config, {
    id: eventId,
    type: 'payment.succeeded',
    data: { deposit_id: depositId, card: { brand: 'visa', last4: '4242' }, amount_minor: Number(deposit?.minor ?? 0), currency: deposit?.currency ?? 'EUR' },
  });
  return app.inject({
    method: 'POST',
    url: '/api/payments/webhook/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
    payload: raw,
  });
}

/** The configured card provider object, for a test that watches what it is asked. */
export const cardProviderOf = (app: FastifyInstance) => paymentProviderFor(app.config);
