import { type CustomFlagImage, defaultCountries, parseCountry } from 'react-international-phone';

/**
 * The phone input shows flag images from a CDN by default; nothing may load from outside the site,
 * so each country gets a small inline SVG badge with its ISO code instead.
 */
export const phoneFlags: CustomFlagImage[] = defaultCountries.map((c) => {
  const { iso2 } = parseCountry(c);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="28" height="20" viewBox="0 0 28 20"><rect width="28" height="20" rx="3" fill="#ece9f4"/><text x="14" y="14" font-family="system-ui,sans-serif" font-size="10" font-weight="700" text-anchor="middle" fill="#3b3552">${iso2.toUpperCase()}</text></svg>`;
  return { iso2, src: `data:image/svg+xml,${encodeURIComponent(svg)}` };
});
