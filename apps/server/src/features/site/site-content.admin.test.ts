import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { registerStaff } from '../../../test/accounts';
import { useTestApp } from '../../../test/test-app';
import { auditLog } from '../../db/schema';

const t = useTestApp({ seed: true });

const staff = () => registerStaff(t.app);

const EVIL =
  '<h2>Terms</h2><p onclick="steal()">Fair <a href="javascript:alert(1)">use</a> <a href="https://example.com">here</a></p><script>alert(2)</script>';

describe('site content in the back office', () => {
  it('edits a static page as sanitised rich text, with a preview of exactly what is stored', async () => {
    const admin = await staff();
    const pages = (await admin.client.get('/api/admin/static-pages')).json().payload as { id: number; slug: string }[];
    const page = pages[0]!;
    const preview = (await admin.client.post('/api/admin/static-pages/preview', { content: EVIL })).json().payload.content as string;
    expect(preview).not.toMatch(/script|onclick|javascript:/);
    expect(preview).toContain('<h2>Terms</h2>');
    expect(preview).toContain('href="https://example.com"');

    const saved = await admin.client.request('PUT', `/api/admin/static-pages/${page.id}`, { body: { title: 'Terms of Service', content: EVIL } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().payload.content).toBe(preview);
    const shown = await t.app.inject({ method: 'GET', url: `/api/static-pages/${page.slug}` });
    expect(shown.json().payload.content).toBe(preview);
    expect((await admin.client.request('PUT', `/api/admin/static-pages/${page.id}`, { body: { title: '', content: 'x' } })).statusCode).toBe(422);
    expect((await admin.client.request('PUT', '/api/admin/static-pages/999999', { body: { title: 'x', content: 'x' } })).statusCode).toBe(404);
    const [row] = await t.app.db.select().from(auditLog).where(eq(auditLog.subjectType, 'static_page'));
    expect(row).toMatchObject({ action: 'static_page.update', subjectId: page.id, staffId: admin.id });
    expect((row!.after as { content: string }).content).toBe(preview);
  });

  it('sets a currency rate (the base currency stays 1) and prices follow at once; edits social links', async () => {
    const admin = await staff();
    const list = (await admin.client.get('/api/admin/currencies')).json().payload as { code: string; is_default: boolean; symbol: string }[];
    const other = list.find((c) => !c.is_default)!;
    const base = list.find((c) => c.is_default)!;
    const res = await admin.client.request('PUT', `/api/admin/currencies/${other.code.toLowerCase()}`, { body: { rate: '2.5', symbol: other.symbol } });
    expect(res.statusCode).toBe(200);
    expect(Number(res.json().payload.rate)).toBe(2.5);
    await vi.waitFor(
      async () => {
        const currencies = (await t.app.inject({ method: 'GET', url: '/api/currencies' })).json().payload as { code: string; value: number }[];
        expect(currencies.find((c) => c.code === other.code)?.value).toBe(2.5);
      },
      { timeout: 3000, interval: 50 },
    );
    expect(
      Number((await admin.client.request('PUT', `/api/admin/currencies/${base.code}`, { body: { rate: '3', symbol: base.symbol } })).json().payload.rate),
    ).toBe(1);
    const bad = await admin.client.request('PUT', `/api/admin/currencies/${other.code}`, { body: { rate: '-1', symbol: 'x' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.rate).toBeDefined();
    expect((await admin.client.request('PUT', '/api/admin/currencies/XXX', { body: { rate: '1', symbol: 'x' } })).statusCode).toBe(404);

    const links = (await admin.client.get('/api/admin/social-links')).json().payload as { id: number; image: string }[];
    expect(links.length).toBeGreaterThan(0);
    const link = links[0]!;
    const saved = await admin.client.request('PUT', `/api/admin/social-links/${link.id}`, {
      body: { url: 'https://social.example/atelier', image: link.image },
    });
    expect(saved.json().payload.url).toBe('https://social.example/atelier');
    expect((await admin.client.request('PUT', `/api/admin/social-links/${link.id}`, { body: { url: 'javascript:alert(1)', image: 'x' } })).statusCode).toBe(
      422,
    );
    const actions = (await t.app.db.select().from(auditLog).where(eq(auditLog.staffId, admin.id))).map((r) => r.action);
    expect(actions.filter((a) => a === 'currency.update')).toHaveLength(2);
  });
});
