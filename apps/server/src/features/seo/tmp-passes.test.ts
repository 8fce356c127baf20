import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';

let t: TestApp;
const dist = path.resolve('apps/web/dist');
beforeAll(async () => {
  t = await createTestApp({ seed: true, env: { WEB_DIST: dist, PUBLIC_URL: 'https://atelier.example', PAYMENT_PROVIDER: 'sandbox' } });
});
afterAll(() => t.close());
it('counts', async () => {
  const mod = await import(pathToFileURL(path.join(dist, '..', 'dist-ssr', 'entry-server.js')).href);
  for (const url of ['/', '/', '/products', '/products/aurora-over-fjords', '/products/aurora-over-fjords', '/packs/night-lights-collection', '/contact', '/de', '/de/contact', '/en/products', '/de/products/aurora-over-fjords', '/page/terms', '/profile/nobody']) {
    const before = mod.renderCountForTests();
    const t0 = Date.now();
    const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    const i = res.body.indexOf('<div id="root">');
    const m = /<template[^>]*>[\s\S]{0,300}/.exec(res.body); if (url === '/') console.log(m?.[0], res.body.match(/<script>[^<]{0,200}/g)?.slice(0,3), res.body.match(/\$R[A-Z]/g)?.length);
    console.log(url, res.statusCode, 'renders', mod.renderCountForTests() - before, Date.now() - t0, 'ms len', res.body.length, /lang="(\w+)"/.exec(res.body)?.[1], res.body.includes('<!--$!-->') ? 'CLIENT-FALLBACK' : '', res.body.includes('<!--$?-->') ? 'PENDING' : '', res.body.includes('<template') ? 'TEMPLATE' : '', res.body.slice(i, i + 60));
  }
});
