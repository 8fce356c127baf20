import { describe, expect, it } from 'vitest';
import { visitorCountry } from './visitor-country';

describe('the phone field default country (issue 18: from the visitor, never fixed)', () => {
  it('takes the region of the first preferred language that has one', () => {
    expect(visitorCountry(['de', 'de-AT', 'en-US'], 'Europe/Berlin')).toBe('at');
    expect(visitorCountry(['zh-Hant-TW'], undefined)).toBe('tw');
  });
  it('falls back to the time zone, then to none', () => {
    expect(visitorCountry(['en'], 'America/Chicago')).toBe('us');
    expect(visitorCountry(['en'], 'Europe/Lisbon')).toBe('pt');
    expect(visitorCountry(['en'], 'Antarctica/Troll')).toBeUndefined();
  });
});
