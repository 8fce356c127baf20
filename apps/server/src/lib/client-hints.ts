import { isIP } from 'node:net';

/**
 * What a person needs to recognise a sign-in, and no more: the browser and system named from the
 * User-Agent (a few patterns, no library), and a coarse hint of the address. The full address is
 * never stored or shown: an IPv4 address keeps its first three parts, an IPv6 one its first three groups.
 */
export function coarseIp(ip: string | undefined): string {
  if (!ip) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const kind = isIP(address);
  if (kind === 4) return `${address.split('.').slice(0, 3).join('.')}.x`;
  if (kind === 6) {
    // Expand "::" so the first three groups are the real ones.
    const [head = '', tail] = address.split('::');
    const headGroups = head ? head.split(':') : [];
    const tailGroups = tail ? tail.split(':') : [];
    const groups = tail === undefined ? headGroups : [...headGroups, ...Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
    return `${groups
      .slice(0, 3)
      .map((g) => g.toLowerCase())
      .join(':')}::x`;
  }
  return '';
}

/** Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari". */
const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

export function describeUserAgent(ua: string): { browser: string; os: string } {
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? 'Unknown browser';
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? 'Unknown system';
  return { browser, os };
}

/**
 * Issue 31: what kind of device a User-Agent comes from, so a phone reads as a phone. Browsers on
 * phones say "Mobile" (Android) or name the iPhone; an iPad or an Android without "Mobile" is a tablet.
 */
export function deviceOf(ua: string): 'phone' | 'tablet' | 'computer' {
  if (/iPad|Tablet/.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))) return 'tablet';
  if (/iPhone|iPod|Mobile|Windows Phone/.test(ua)) return 'phone';
  return 'computer';
}
