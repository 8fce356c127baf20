import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cityDatabase } from '../../test/mmdb-writer';
import { openGeoIp } from './geoip';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atelier-geoip-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the coarse place of an address (issue 21)', () => {
  it('names the city and country from a MaxMind database, and nothing for an address it does not hold', async () => {
    const file = path.join(dir, 'city.mmdb');
    await writeFile(file, cityDatabase('203.0.113.0/24', 'Berlin', 'Germany', 'DE'));
    const geo = await openGeoIp(file);
    expect(geo.place('203.0.113.77')).toBe('Berlin, Germany');
    expect(geo.place('198.51.100.7')).toBeNull();
    expect(geo.place('not an address')).toBeNull();
  });

  it('knows no place without GEOIP_DB, and refuses a file that is not a MaxMind database with a sentence naming the variable', async () => {
    expect((await openGeoIp(undefined)).place('203.0.113.77')).toBeNull();
    const bad = path.join(dir, 'bad.mmdb');
    await writeFile(bad, 'not a database');
    await expect(openGeoIp(bad)).rejects.toThrow(/^GEOIP_DB=.*bad\.mmdb could not be read as a MaxMind database/);
    await expect(openGeoIp(path.join(dir, 'missing.mmdb'))).rejects.toThrow(/GEOIP_DB=.*missing\.mmdb could not be read/);
  });
});
