import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../../../test/accounts';
import { balanceMinor, fund, revenueMinor, seededProducts, userIdByEmail } from '../../../test/commerce';
import { createTestApp, type TestApp, TestClient } from '../../../test/test-app';
import { products } from '../../db/schema';
import { readStoredZip } from '../../lib/zip';
import { checkLedger } from '../ledger';
import { setSetting } from '../site/site.queries';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

async function promptOwner(extraMinor: number) {
  const { client, person } = await registerUser(t.app);
  const id = await userIdByEmail(t.app, person.email);
  const [, , prompt] = await seededProducts(t.app, 'prompt');
  await fund(t.app, id, Number(prompt!.priceMinor) + extraMinor);
  expect((await client.post('/api/purchase/prompt', { prompt_id: prompt!.id })).statusCode).toBe(200);
  return { client, id, prompt: prompt! };
}

describe('generate-image (built-in renderer)', () => {
  it('answers a zip with the image, the prompt and the licence, and charges generation_price', async () => {
    const { client, id, prompt } = await promptOwner(250);
    const revenueBefore = await revenueMinor(t.app);
    const res = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'PNG', size: '1024x1024' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${prompt.slug}-1024x1024.zip"`);
    const files = readStoredZip(res.rawPayload);
    expect(files.map((f) => f.name)).toEqual([`${prompt.slug}-1024x1024.png`, 'prompt.txt', 'LICENSE.txt']);
    const meta = await sharp(files[0]!.data).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    expect(files[1]!.data.toString()).toBe(`${prompt.promptText}\n`);
    expect(files[2]!.data.toString()).toContain('built-in renderer');
    expect(await balanceMinor(t.app, id)).toBe(150);
    expect(await revenueMinor(t.app)).toBe(revenueBefore + 100);

    // The same prompt and size draw the same picture; ids from the settings lists work too.
    const again = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 3, size: 3 });
    const webp = readStoredZip(again.rawPayload)[0]!;
    expect(webp.name).toBe(`${prompt.slug}-1024x1536.webp`);
    expect(await sharp(webp.data).metadata()).toMatchObject({ format: 'webp', width: 1024, height: 1536 });
    expect(await balanceMinor(t.app, id)).toBe(50);

    const short = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'JPEG', size: '1024x1024' });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe('Your balance is too low: 0.50 € is missing. Please add funds to continue.');
    expect(await balanceMinor(t.app, id)).toBe(50);
  });

  it('a bad format or size, a prompt not owned, or a guest is refused', async () => {
    const { client, prompt } = await promptOwner(500);
    const bad = await client.post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'BMP', size: '10x10' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.format[0]).toMatch(/PNG, JPEG, WebP/);
    expect(bad.json().errors.size[0]).toMatch(/1024x1024/);
    const [other] = await seededProducts(t.app, 'prompt');
    const notOwned = await client.post('/api/purchase/generate-image', { prompt_id: other!.id, format: 'PNG', size: '1024x1024' });
    expect(notOwned.statusCode).toBe(422);
    expect(notOwned.json().errors.prompt_id).toEqual(['Buy this prompt first to generate images from it.']);
    const [image] = await seededProducts(t.app, 'image');
    expect((await client.post('/api/purchase/generate-image', { prompt_id: image!.id, format: 'PNG', size: '1024x1024' })).json().errors.prompt_id).toEqual([
      'This product is not a prompt.',
    ]);
    expect((await new TestClient(t.app).post('/api/purchase/generate-image', { prompt_id: prompt.id, format: 'PNG', size: '1024x1024' })).statusCode).toBe(401);
  });
});

describe('generate-image (images API)', () => {
  let api: Server;
  let calls = 0;
  let g: TestApp;
  beforeAll(async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    api = createServer((req, res) => {
      calls += 1;
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        const ok = req.url === '/v1/images/generations' && req.headers.authorization === 'Bearer test-key' && JSON.parse(body).size === '1536x1024';
        // The first call fails: the charge must come back.
        if (calls === 1 || !ok) {
          res.writeHead(500).end('{"error":"boom"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ b64_json: png.toString('base64') }] }));
      });
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const port = (api.address() as AddressInfo).port;
    g = await createTestApp({ env: { IMAGE_API_URL: `http://127.0.0.1:${port}/v1`, IMAGE_API_KEY: 'test-key' } });
    await setSetting(g.app.db, 'is_reg_enabled', true);
    await setSetting(g.app.db, 'formats', [{ id: 1, title: 'JPEG' }]);
    await setSetting(g.app.db, 'sizes', [{ id: 1, title: '1536x1024' }]);
  });
  afterAll(async () => {
    await g.close();
    api.close();
  });

  it('a generator failure refunds the charge; a working API gives its image in the asked size and format', async () => {
    const author = await registerUser(g.app);
    const authorId = await userIdByEmail(g.app, author.person.email);
    const [prompt] = await g.app.db
      .insert(products)
      .values({ slug: 'api-prompt', title: 'API prompt', productType: 'prompt', authorId, priceMinor: 100, promptText: 'a lighthouse at dusk' })
      .returning();
    const { client, person } = await registerUser(g.app);
    const id = await userIdByEmail(g.app, person.email);
    await fund(g.app, id, 300);
    expect((await client.post('/api/purchase/prompt', { prompt_id: prompt!.id })).statusCode).toBe(200);

    const failed = await client.post('/api/purchase/generate-image', { prompt_id: prompt!.id, format: 'JPEG', size: '1536x1024' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ status: 'ERROR', message: 'The image could not be generated. Your balance was refunded.' });
    expect(await balanceMinor(g.app, id)).toBe(200);

    const ok = await client.post('/api/purchase/generate-image', { prompt_id: prompt!.id, format: 'JPEG', size: '1536x1024' });
    expect(ok.statusCode).toBe(200);
    const [image] = readStoredZip(ok.rawPayload);
    expect(image!.name).toBe('api-prompt-1536x1024.jpg');
    expect(await sharp(image!.data).metadata()).toMatchObject({ format: 'jpeg', width: 1536, height: 1024 });
    expect(await balanceMinor(g.app, id)).toBe(100);
    expect(await checkLedger(g.app.db)).toEqual({ unbalancedTransactions: [], driftedAccounts: [], totalMinor: 0 });
  });
});
