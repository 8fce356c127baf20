import { createHash } from 'node:crypto';
import { de, en } from '@atelier/shared';
import { sql } from 'drizzle-orm';
import { currencies, languages, socialLinks, translations } from '../../db/schema';
import { demoSocial, demoStaticPages } from '../../db/seed-content';
import { socialIconSvg } from '../../db/seed-images';
import type { Seeder } from '../../db/seeding';
import { saveStaticPage, setSetting } from './site.queries';

/**
 * Settings are one text for every language (SPEC: staff write them), so the ones the store opens with
 * are written to read right in each: no English sentence in the footer of a German page.
 */
const copyright = () => `© ${new Date().getFullYear()} Atelier`;

/** What every store needs to open: currencies, languages and their words, legal pages and settings. */
export const siteSeeder: Seeder = {
  name: 'site',
  demo: false,
  async run(tx) {
    await tx
      .insert(currencies)
      .values([
        { code: 'EUR', symbol: '€', rate: '1', isDefault: true, position: 0 },
        { code: 'USD', symbol: '$', rate: '1.08', isDefault: false, position: 1 },
        { code: 'GBP', symbol: '£', rate: '0.85', isDefault: false, position: 2 },
        // Whole yen only: the deposit rules for currencies without decimals are real, not hypothetical.
        { code: 'JPY', symbol: '¥', rate: '162', decimals: 0, isDefault: false, position: 3 },
      ])
      .onConflictDoNothing();
    for (const [i, page] of demoStaticPages.entries()) await saveStaticPage(tx, { ...page, position: i });
    await tx
      .insert(languages)
      .values([
        { code: 'en', name: 'English', isDefault: true },
        { code: 'de', name: 'Deutsch', isDefault: false },
      ])
      .onConflictDoNothing();
    await setSetting(tx, 'is_reg_enabled', true);
    await setSetting(tx, 'is_email_verification_enabled', false);
    await setSetting(tx, 'internal_currency_name', 'Atelier Credits');
    await setSetting(tx, 'google_tag', '');
    await setSetting(tx, 'support_email', 'support@atelier.example');
    await setSetting(tx, 'copyright', copyright());
  },
  async adopt(tx, seededAt) {
    // The template may come from an earlier year's build.
    if (seededAt.getFullYear() !== new Date().getFullYear()) await setSetting(tx, 'copyright', copyright());
  },
};

/** The demo store's company details and social icons. */
export const demoSiteSeeder: Seeder = {
  name: 'demo-site',
  demo: true,
  async prepare({ storage }) {
    for (const s of demoSocial) await storage.putPublic(`social/${s.name}.svg`, socialIconSvg(s.color));
  },
  async run(tx) {
    for (const [i, s] of demoSocial.entries()) {
      await tx.insert(socialLinks).values({ url: s.url, image: `social/${s.name}.svg`, position: i });
    }
    // The company's details as registered in Portugal, which read the same in every language (a
    // non-breaking hyphen keeps the post code on one line).
    await setSetting(tx, 'requisites', 'Atelier Marketplace Lda. · Rua Criativa 1, 1100‑001 Lisboa, Portugal · NIF PT500000000');
  },
};

/**
 * The bundled dictionaries (English and the full German one). The seeder's name carries a digest of
 * the words, so any change to them is a new seeder that databases seeded before it run too, without
 * anyone remembering to rename it; edits made since stay untouched only for keys the bundle does not have.
 */
export const dictionariesSeeder: Seeder = {
  name: `dictionaries-${createHash('sha256')
    .update(JSON.stringify([en, de]))
    .digest('hex')
    .slice(0, 12)}`,
  demo: false,
  async run(tx) {
    for (const [locale, words] of [
      ['en', en],
      ['de', de],
    ] as const) {
      await tx
        .insert(translations)
        .values(Object.entries(words).map(([key, value]) => ({ locale, key, value })))
        .onConflictDoUpdate({ target: [translations.locale, translations.key], set: { value: sql`excluded.value` } });
    }
  },
};
