import { useQuery } from '@tanstack/react-query';
import { contract, payloadOf, quiet } from './api-contract';
import { useIsClient } from './ssr-env';

/** IANA time zones → ISO country, for the zones most visitors are in (one zone per line of the world). */
const ZONES: Record<string, string> = Object.fromEntries(
  (
    'Europe/Lisbon:pt Europe/London:gb Europe/Dublin:ie Europe/Madrid:es Europe/Paris:fr Europe/Brussels:be Europe/Amsterdam:nl ' +
    'Europe/Luxembourg:lu Europe/Berlin:de Europe/Zurich:ch Europe/Vienna:at Europe/Rome:it Europe/Copenhagen:dk Europe/Oslo:no ' +
    'Europe/Stockholm:se Europe/Helsinki:fi Europe/Warsaw:pl Europe/Prague:cz Europe/Bratislava:sk Europe/Budapest:hu ' +
    'Europe/Ljubljana:si Europe/Zagreb:hr Europe/Belgrade:rs Europe/Sofia:bg Europe/Bucharest:ro Europe/Athens:gr ' +
    'Europe/Istanbul:tr Europe/Kyiv:ua Europe/Kiev:ua Europe/Vilnius:lt Europe/Riga:lv Europe/Tallinn:ee Europe/Malta:mt ' +
    'Asia/Nicosia:cy Atlantic/Reykjavik:is Europe/Moscow:ru America/New_York:us America/Chicago:us America/Denver:us ' +
    'America/Phoenix:us America/Los_Angeles:us America/Anchorage:us Pacific/Honolulu:us America/Toronto:ca America/Vancouver:ca ' +
    'America/Edmonton:ca America/Winnipeg:ca America/Halifax:ca America/Mexico_City:mx America/Sao_Paulo:br ' +
    'America/Argentina/Buenos_Aires:ar America/Santiago:cl America/Bogota:co America/Lima:pe Asia/Tokyo:jp Asia/Seoul:kr ' +
    'Asia/Shanghai:cn Asia/Hong_Kong:hk Asia/Taipei:tw Asia/Singapore:sg Asia/Kolkata:in Asia/Calcutta:in Asia/Dubai:ae ' +
    'Asia/Jerusalem:il Asia/Bangkok:th Asia/Jakarta:id Asia/Manila:ph Australia/Sydney:au Australia/Melbourne:au ' +
    'Australia/Perth:au Australia/Brisbane:au Pacific/Auckland:nz Africa/Johannesburg:za Africa/Lagos:ng Africa/Cairo:eg Africa/Nairobi:ke'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** The browser's own hints, for when the server knows nothing: its time zone, then its language regions. */
export function browserCountry(zone: string | undefined, languages: readonly string[]): string | null {
  if (zone && ZONES[zone]) return ZONES[zone];
  for (const tag of languages) {
    const region = tag
      .split('-')
      .slice(1)
      .find((sub) => /^[A-Za-z]{2}$/.test(sub));
    if (region) return region.toLowerCase();
  }
  return null;
}

/**
 * The visitor's likely country as a lowercase ISO code ("de"), for defaults such as the phone field
 * (issue 18): the address (GEOIP_DB) or Accept-Language region as the server sees it, else the
 * browser's time zone and languages. null until known, and on the server.
 */
export function useVisitorCountry(): string | null {
  const isClient = useIsClient();
  const server = useQuery({
    queryKey: ['visitor-country'],
    queryFn: ({ signal }) => payloadOf(contract.GET('/api/visitor/country', { signal, ...quiet })),
    enabled: isClient,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  if (!isClient || server.isPending) return null;
  if (server.data?.country) return server.data.country.toLowerCase();
  return browserCountry(Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.languages ?? [navigator.language]);
}
