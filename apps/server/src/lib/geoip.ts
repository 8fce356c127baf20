import maxmind, { type CityResponse, type Reader } from 'maxmind';

/** Where an address is, as a person says it: "Berlin, Germany", "Germany", or null when unknown. */
export type GeoIp = {
  place(ip: string): string | null;
  /** The ISO 3166-1 alpha-2 code of the address's country ("DE"), or null when unknown. */
  country(ip: string): string | null;
};

const NOWHERE: GeoIp = { place: () => null, country: () => null };

/**
 * The coarse place of a sign-in for the new-browser e-mail (issue 21), from a MaxMind GeoLite2 or
 * GeoIP2 City/Country database named by GEOIP_DB. Read from the local file only: nothing is looked up
 * over the network. Without GEOIP_DB the place is unknown and the e-mail names the network instead.
 */
export async function openGeoIp(file: string | undefined): Promise<GeoIp> {
  if (!file) return NOWHERE;
  let reader: Reader<CityResponse>;
  try {
    reader = await maxmind.open<CityResponse>(file);
  } catch (err) {
    throw new Error(`GEOIP_DB=${file} could not be read as a MaxMind database (${(err as Error).message}). Fix the path or leave GEOIP_DB unset.`);
  }
  const lookup = (ip: string): CityResponse | null => {
    if (!maxmind.validate(ip)) return null;
    try {
      return reader.get(ip);
    } catch {
      return null;
    }
  };
  return {
    country: (ip) => lookup(ip)?.country?.iso_code ?? null,
    place(ip) {
      const found = lookup(ip);
      const city = found?.city?.names?.en;
      const country = found?.country?.names?.en ?? found?.registered_country?.names?.en;
      if (city && country) return `${city}, ${country}`;
      return country ?? null;
    },
  };
}
