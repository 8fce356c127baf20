/**
 * The phone field's default country, from the visitor (issue 18: never a fixed country): the region of
 * the browser's preferred languages ('de-AT' → at), else the time zone's country, else none (the
 * picker then starts empty and the visitor picks).
 */
const ZONE_COUNTRY: Record<string, string> = {
  'Europe/Lisbon': 'pt',
  'Europe/Madrid': 'es',
  'Europe/Paris': 'fr',
  'Europe/Berlin': 'de',
  'Europe/Vienna': 'at',
  'Europe/Zurich': 'ch',
  'Europe/Rome': 'it',
  'Europe/Amsterdam': 'nl',
  'Europe/Brussels': 'be',
  'Europe/London': 'gb',
  'Europe/Dublin': 'ie',
  'Europe/Warsaw': 'pl',
  'Europe/Prague': 'cz',
  'Europe/Stockholm': 'se',
  'Europe/Oslo': 'no',
  'Europe/Copenhagen': 'dk',
  'Europe/Helsinki': 'fi',
  'Europe/Athens': 'gr',
  'Europe/Kyiv': 'ua',
  'Europe/Istanbul': 'tr',
  'America/New_York': 'us',
  'America/Chicago': 'us',
  'America/Denver': 'us',
  'America/Los_Angeles': 'us',
  'America/Toronto': 'ca',
  'America/Vancouver': 'ca',
  'America/Mexico_City': 'mx',
  'America/Sao_Paulo': 'br',
  'America/Argentina/Buenos_Aires': 'ar',
  'Asia/Tokyo': 'jp',
  'Asia/Seoul': 'kr',
  'Asia/Shanghai': 'cn',
  'Asia/Kolkata': 'in',
  'Asia/Singapore': 'sg',
  'Asia/Dubai': 'ae',
  'Australia/Sydney': 'au',
  'Pacific/Auckland': 'nz',
  'Africa/Johannesburg': 'za',
};

export function visitorCountry(
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
  timeZone: string | undefined = typeof Intl === 'undefined' ? undefined : Intl.DateTimeFormat().resolvedOptions().timeZone,
): string | undefined {
  for (const tag of languages) {
    const region = /^[a-z]{2,3}(?:-[A-Za-z]{4})?-([A-Za-z]{2})\b/.exec(tag)?.[1];
    if (region) return region.toLowerCase();
  }
  return timeZone ? ZONE_COUNTRY[timeZone] : undefined;
}
