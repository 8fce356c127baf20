/**
 * VAT identification numbers, checked offline: the format of each EU country, and the real check-digit
 * algorithm for DE, FR (numeric key), PT, IT, ES, NL, BE and AT. The other countries (BG, CY, CZ, DK, EE,
 * EL, FI, HR, HU, IE, LT, LU, LV, MT, PL, RO, SE, SI, SK) are checked for format only. A number that
 * passes may still not be registered: VIES is not asked (no network at sale time).
 */

/** The VAT prefix of each EU country (Greece is EL) and its format after the prefix. */
const FORMATS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

const digits = (s: string) => [...s].map(Number);

/** Countries whose check digits are verified, not only the format. */
export const CHECKED_VAT_COUNTRIES = ['AT', 'BE', 'DE', 'ES', 'FR', 'IT', 'NL', 'PT'] as const;

const CHECKS: Record<string, (n: string) => boolean> = {
  // ISO 7064 MOD 11,10.
  DE(n) {
    const d = digits(n);
    let product = 10;
    for (let i = 0; i < 8; i++) {
      let sum = (d[i]! + product) % 10;
      if (sum === 0) sum = 10;
      product = (2 * sum) % 11;
    }
    const check = 11 - product === 10 ? 0 : 11 - product;
    return check === d[8];
  },
  // The key is (12 + 3 × (SIREN mod 97)) mod 97 when numeric; alphabetic keys are checked for format only.
  FR(n) {
    const key = n.slice(0, 2);
    if (!/^\d{2}$/.test(key)) return true;
    const siren = Number(n.slice(2));
    return Number(key) === (12 + 3 * (siren % 97)) % 97;
  },
  PT(n) {
    const d = digits(n);
    const sum = d.slice(0, 8).reduce((s, x, i) => s + x * (9 - i), 0);
    const check = 11 - (sum % 11);
    return (check >= 10 ? 0 : check) === d[8];
  },
  // Luhn over the 11 digits.
  IT(n) {
    const d = digits(n);
    let sum = 0;
    for (let i = 0; i < 10; i++) {
      if (i % 2 === 0) sum += d[i]!;
      else {
        const x = d[i]! * 2;
        sum += x > 9 ? x - 9 : x;
      }
    }
    return (10 - (sum % 10)) % 10 === d[10];
  },
  // NIF of a company (a letter, 7 digits, a digit or letter) or of a person (DNI/NIE: digits and a letter).
  ES(n) {
    const first = n[0]!;
    const last = n[8]!;
    if (/[0-9KLMXYZ]/.test(first) && /[A-Z]/.test(last)) {
      const body = (first === 'X' || first === 'K' || first === 'L' || first === 'M' ? '0' : first === 'Y' ? '1' : first === 'Z' ? '2' : first) + n.slice(1, 8);
      return 'TRWAGMYFPDXBNJZSQVHLCKE'[Number(body) % 23] === last;
    }
    if (!/[A-HJNPQRSUVW]/.test(first)) return false;
    const d = digits(n.slice(1, 8));
    let sum = 0;
    d.forEach((x, i) => {
      if (i % 2 === 1) sum += x;
      else {
        const y = x * 2;
        sum += Math.floor(y / 10) + (y % 10);
      }
    });
    const check = (10 - (sum % 10)) % 10;
    return last === String(check) || last === 'JABCDEFGHI'[check];
  },
  // The older 11-test of the fiscal number, or the mod-97 rule of the numbers issued since 2020.
  NL(n) {
    const d = digits(n.slice(0, 9));
    const sum = d.slice(0, 8).reduce((s, x, i) => s + x * (9 - i), 0);
    if (sum % 11 === d[8]) return true;
    const numeric = `NL${n}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    return BigInt(numeric) % 97n === 1n;
  },
  BE(n) {
    return 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8));
  },
  AT(n) {
    const d = digits(n.slice(1));
    let sum = 0;
    for (let i = 0; i < 7; i++) {
      if (i % 2 === 0) sum += d[i]!;
      else {
        const y = d[i]! * 2;
        sum += Math.floor(y / 10) + (y % 10);
      }
    }
    return (10 - ((sum + 4) % 10)) % 10 === d[7];
  },
};

/** The ISO country of a VAT prefix (EL is Greece). */
export const countryOfVatPrefix = (prefix: string) => (prefix === 'EL' ? 'GR' : prefix);

/**
 * A VAT number as written ("DE 136 695 976", "de136695976") normalized to "DE136695976" with its ISO
 * country, or the reason it is not valid.
 */
export function checkVatNumber(raw: string): { ok: true; number: string; country: string } | { ok: false; message: string } {
  const compact = raw.toUpperCase().replace(/[\s.\-/]/g, '');
  const prefix = compact.slice(0, 2);
  const rest = compact.slice(2);
  const format = FORMATS[prefix];
  if (!format) return { ok: false, message: 'A VAT number starts with the code of an EU country, such as DE or FR.' };
  if (!format.test(rest)) return { ok: false, message: `This is not the format of a VAT number of ${countryOfVatPrefix(prefix)}.` };
  const check = CHECKS[prefix];
  if (check && !check(rest)) return { ok: false, message: 'The check digits of this VAT number do not match: please check it for typing errors.' };
  return { ok: true, number: compact, country: countryOfVatPrefix(prefix) };
}
