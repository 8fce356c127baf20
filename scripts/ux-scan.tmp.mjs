// Temporary: screenshots + axe over pages (not committed). Usage: node scripts/ux-scan.tmp.mjs BASE OUTDIR paths...
import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';
const [base, out, who, ...paths] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
for (const width of [1280, 375]) {
  const ctx = await browser.newContext({ viewport: { width, height: width === 375 ? 812 : 900 } });
  await ctx.addCookies([{ name: 'cookie_consent', value: 'essential', url: base }]);
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log(`  console(${width}):`, m.text().slice(0, 200)); });
  if (who !== 'guest') {
    await page.goto(`${base}/login`);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await page.getByLabel('Email').fill(who);
    await page.getByLabel('Password', { exact: true }).fill('atelier-demo');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  }
  for (const p of paths) {
    await page.goto(base + p);
    await page.locator('html[data-app-ready]').waitFor({ state: 'attached' });
    await page.waitForTimeout(1200);
    const name = `${who.split('@')[0]}${p.replace(/[/?=&]/g, '_')}-${width}`;
    await page.screenshot({ path: `${out}/${name}.png`, fullPage: width === 375 ? false : true });
    const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const other = r.violations.filter((v) => !(v.impact === 'serious' || v.impact === 'critical')).map((v) => v.id);
    console.log(`${name}: ${bad.length ? 'FAIL' : 'ok'} ${other.length ? `(minor: ${other.join(',')})` : ''}`);
    for (const v of bad) console.log(`   ${v.impact} ${v.id}: ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
  }
  await ctx.close();
}
await browser.close();
