import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { userIdByEmail } from '../../../test/commerce';
import { openStream } from '../../../test/event-stream';
import { createTestApps, type TestApp, TestClient } from '../../../test/test-app';
import { setSetting } from '../../lib/settings';

/** Two app servers on one database, as behind a load balancer. */
let apps: TestApp[];
beforeAll(async () => {
  apps = await createTestApps(2);
  await setSetting(apps[0]!.app.db, 'is_reg_enabled', true);
});
afterAll(async () => {
  for (const a of apps) await a.close();
});

describe('live events', () => {
  it('a message sent through one app server reaches an event stream held by another', async () => {
    const [one, two] = apps as [TestApp, TestApp];
    await two.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(two.app.server.address() as AddressInfo).port}`;
    const buyer = await registerUser(one.app);
    const creator = await registerUser(one.app);
    const creatorId = await userIdByEmail(one.app, creator.person.email);

    const stream = await openStream(base, creator.client);
    expect(stream.status).toBe(200);
    await stream.next('ready');

    const chat = await buyer.client.post('/api/chat', { recipient_id: creatorId });
    const chatId = chat.json().payload.id;
    const sending = stream.next('new_message');
    expect((await buyer.client.post(`/api/chat/${chatId}/messages`, { message: 'Are you there?' })).statusCode).toBe(200);
    const event = await sending;
    expect(event.data).toMatchObject({ kind: 'new_message', chatId });
    expect(Number(event.id)).toBe(event.data.notificationId);

    // The bell (read through the other server) holds it; a reconnect after it replays nothing older.
    const bell = (await new TestClientOn(two.app, creator.client).get('/api/notifications')).json();
    expect(bell.payload[0]).toMatchObject({ id: event.data.notificationId, kind: 'new_message', chat_id: chatId, text: 'New message from Ines Duarte' });
    stream.close();

    // Missed while away: Last-Event-ID resumes from the last event seen.
    await buyer.client.post(`/api/chat/${chatId}/messages`, { message: 'Hello again' });
    const resumed = await openStream(base, creator.client, { 'last-event-id': String(event.id) });
    const replay = await resumed.next('new_message');
    expect(Number(replay.id)).toBeGreaterThan(Number(event.id));
    resumed.close();

    // A guest cannot open a stream.
    const guest = await openStream(base, new TestClient(two.app));
    expect(guest.status).toBe(401);
    guest.close();
  });
});

/** The same browser (cookies) talking to another app server. */
class TestClientOn extends TestClient {
  constructor(app: TestApp['app'], from: TestClient) {
    super(app);
    for (const [k, v] of from.cookies) this.cookies.set(k, v);
  }
}
