import { siteSettings } from '../../db/schema';
import type { Seeder } from '../../db/seeding';
import { setSetting } from '../../lib/settings';
import { commerceDefaults } from './commerce-settings';

/**
 * Commerce settings: the generated-image choices (real formats and sizes) and the money rules read
 * by commerce-settings.ts (commission, deposit bounds, generation price), which are not public.
 */
export const commerceSettingsSeeder: Seeder = {
  name: 'commerce-settings',
  demo: false,
  async run(tx) {
    await setSetting(tx, 'formats', [
      { id: 1, title: 'PNG' },
      { id: 2, title: 'JPEG' },
      { id: 3, title: 'WebP' },
    ]);
    await setSetting(tx, 'sizes', [
      { id: 1, title: '1024x1024' },
      { id: 2, title: '1536x1024' },
      { id: 3, title: '1024x1536' },
    ]);
    for (const [key, value] of Object.entries(commerceDefaults)) {
      await tx.insert(siteSettings).values({ key, value }).onConflictDoNothing();
    }
  },
};
