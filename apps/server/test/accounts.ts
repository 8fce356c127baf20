import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mailOutbox, users } from '../src/db/schema';
import { TestClient } from './test-app';

let counter = 0;

export function newPerson(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    name: 'Ines',
    surname: 'Duarte',
    email: `ines${counter}.${Date.now()}@example.com`,
    phone: '+351912345678',
    password: 'violet-harbour-42',
    passConfirm: 'violet-harbour-42',
    terms_agreed: true,
    ...overrides,
  };
}

/** Registers a new user through the API and returns a signed-in client and the person's data. */
export async function registerUser(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const client = new TestClient(app);
  const person = newPerson(overrides);
  const res = await client.post('/api/register', person);
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { client, person };
}

/** A newly registered, signed-in user with their id, e-mail and password. */
export async function registerPerson(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const { client, person } = await registerUser(app, overrides);
  const [row] = await app.db.select({ id: users.id }).from(users).where(eq(users.email, person.email));
  if (!row) throw new Error(`no user ${person.email}`);
  return { client, id: row.id, email: person.email, password: person.password };
}

/** A newly registered user made staff (role admin), signed in: for back-office tests. */
export async function registerStaff(app: FastifyInstance) {
  const staff = await registerPerson(app);
  await app.db.update(users).set({ role: 'admin' }).where(eq(users.id, staff.id));
  return staff;
}

export async function signIn(app: FastifyInstance, email: string, password: string) {
  const client = new TestClient(app);
  const res = await client.post('/api/login', { username: email, password });
  return { client, res };
}

/** The newest message sent to an address, as the outbox holds it. */
export async function lastMailTo(app: FastifyInstance, to: string) {
  const [row] = await app.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id)).limit(1);
  return row;
}

export function linkIn(text: string): URL {
  const match = /(https?:\/\/\S+)/.exec(text);
  if (!match) throw new Error(`no link in: ${text}`);
  return new URL(match[1]!);
}

/** A multipart/form-data body with one file part, as a browser sends it. */
export function multipartFile(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----atelier${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Trader details as a seller gives them (issue 33): the gate before a first listing or withdrawal. */
export const sellerDetailsBody = {
  kind: 'individual',
  legal_name: 'Ines Duarte',
  date_of_birth: '1991-05-20',
  address: { line1: 'Rua Augusta 100', city: 'Lisboa', post_code: '1100-053', country: 'PT' },
  tax_id: '234567890',
};

/** A newly registered, signed-in creator who gave their trader details, so they may list and withdraw. */
export async function registerSeller(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const seller = await registerPerson(app, overrides);
  const res = await seller.client.put('/api/user/seller-details', sellerDetailsBody);
  if (res.statusCode !== 200) throw new Error(`seller details failed: ${res.statusCode} ${res.body}`);
  return seller;
}
