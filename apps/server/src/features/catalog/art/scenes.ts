import { createHash } from 'node:crypto';

/**
 * Painted scenes for the demo works, as SVG in a 960×720 view box (rendered at any size). Each demo
 * image and each image prompt has its own scene, drawn from its title and style; a work without one
 * gets a landscape, sky or pattern chosen and coloured by its name.
 */

export const VIEW_W = 960;
export const VIEW_H = 720;

export type Rng = () => number;

/** A repeatable random sequence from a name (mulberry32). */
export function rngFor(name: string): Rng {
  let a = createHash('sha256').update(name).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (r: Rng, lo: number, hi: number) => lo + r() * (hi - lo);
const f = (n: number) => n.toFixed(1);

function linear(id: string, stops: string[], vertical = true): string {
  const s = stops.map((c, i) => `<stop offset="${i / Math.max(1, stops.length - 1)}" stop-color="${c}"/>`).join('');
  return `<linearGradient id="${id}" x1="0" y1="0" x2="${vertical ? 0 : 1}" y2="${vertical ? 1 : 0}">${s}</linearGradient>`;
}
function radial(id: string, stops: Array<[string, number]>, cx = 0.5, cy = 0.5, r = 0.5): string {
  const s = stops.map(([c, o], i) => `<stop offset="${i / Math.max(1, stops.length - 1)}" stop-color="${c}" stop-opacity="${o}"/>`).join('');
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${s}</radialGradient>`;
}
const blur = (id: string, sd: number) => `<filter id="${id}" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${sd}"/></filter>`;

/** A mountain or hill line across the view, closed at the bottom (midpoint displacement). */
function ridge(r: Rng, baseY: number, amp: number, rough: number, fill: string, extra = ''): string {
  let pts: number[] = [baseY + between(r, -amp, amp) * 0.3, baseY + between(r, -amp, amp) * 0.3];
  let spread = amp;
  for (let level = 0; level < 6; level++) {
    const next: number[] = [];
    for (let i = 0; i < pts.length - 1; i++) next.push(pts[i]!, (pts[i]! + pts[i + 1]!) / 2 + between(r, -spread, spread));
    next.push(pts[pts.length - 1]!);
    pts = next;
    spread *= rough;
  }
  const step = VIEW_W / (pts.length - 1);
  const d = pts.map((y, i) => `${i ? 'L' : 'M'}${f(i * step)},${f(y)}`).join('');
  return `<path d="${d}L${VIEW_W},${VIEW_H}L0,${VIEW_H}Z" fill="${fill}" ${extra}/>`;
}

function stars(r: Rng, n: number, maxY: number): string {
  return Array.from({ length: n }, () => {
    const size = r() < 0.9 ? between(r, 0.6, 1.4) : between(r, 1.6, 2.4);
    return `<circle cx="${f(r() * VIEW_W)}" cy="${f(r() * maxY)}" r="${f(size)}" fill="#fff" opacity="${f(between(r, 0.35, 1))}"/>`;
  }).join('');
}

function wave(yBase: number, amp: number, len: number, phase: number, bottom = VIEW_H): string {
  let d = `M0,${f(yBase + Math.sin(phase) * amp)}`;
  for (let x = 20; x <= VIEW_W + 20; x += 20) d += `L${x},${f(yBase + Math.sin(phase + (x / len) * Math.PI * 2) * amp)}`;
  return `${d}L${VIEW_W + 20},${bottom}L0,${bottom}Z`;
}

type Scene = (r: Rng) => string;

const aurora: Scene = (r) => {
  /** One curtain of light: thin vertical rays standing on a wavy line, bright green below, violet above. */
  const curtain = (base: number, tiltPerPx: number, amp: number, tall: number, fill: string, opacity: number) => {
    const phase = r() * 6;
    const len = between(r, 380, 620);
    const rays: string[] = [];
    for (let x = -10; x < 970; x += 5) {
      const y = base + x * tiltPerPx + Math.sin(phase + (x / len) * Math.PI * 2) * amp;
      const h = tall * (0.55 + 0.45 * Math.sin(x / 37 + phase) ** 2) * between(r, 0.8, 1.1);
      rays.push(`<rect x="${x}" y="${f(y - h)}" width="5" height="${f(h)}" fill="url(#${fill})" opacity="${f(opacity * between(r, 0.55, 1))}"/>`);
    }
    return rays.join('');
  };
  const main = curtain(330, -0.16, 38, 210, 'cur', 0.9);
  const second = curtain(250, 0.05, 26, 150, 'cur2', 0.55);
  return `<defs>${linear('sky', ['#010310', '#04142a', '#0a2f42'])}<linearGradient id="cur" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#b7ffcf" stop-opacity="0.95"/><stop offset="0.12" stop-color="#34d399"/><stop offset="0.55" stop-color="#14b8a6" stop-opacity="0.6"/><stop offset="1" stop-color="#a78bfa" stop-opacity="0"/></linearGradient><linearGradient id="cur2" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#c4b5fd" stop-opacity="0.9"/><stop offset="0.4" stop-color="#818cf8" stop-opacity="0.5"/><stop offset="1" stop-color="#f0abfc" stop-opacity="0"/></linearGradient>${linear('water', ['#06182b', '#01060d'])}${blur('b22', 22)}${blur('b2', 2.2)}<clipPath id="wc"><rect y="520" width="960" height="200"/></clipPath></defs>
<rect width="960" height="720" fill="url(#sky)"/>${stars(r, 180, 460)}<g id="aur"><g filter="url(#b22)" opacity="0.8">${second}${main}</g><g filter="url(#b2)">${second}${main}</g></g>
${ridge(r, 410, 110, 0.55, '#16324a', 'opacity="0.92"')}${ridge(r, 465, 95, 0.55, '#0b1d2e')}${ridge(r, 505, 55, 0.5, '#040c16')}
<rect y="520" width="960" height="200" fill="url(#water)"/><g clip-path="url(#wc)" opacity="0.35"><use href="#aur" transform="translate(0,520) scale(1,-0.45) translate(0,-520)"/></g>
<rect y="519" width="960" height="2" fill="#6ee7b7" opacity="0.3"/>`;
};

const neonAlley: Scene = (r) => {
  const signs: string[] = [];
  const colours = ['#ff2bd6', '#22e4ff', '#ffd23f', '#ff5757', '#7cff6b'];
  for (let i = 0; i < 14; i++) {
    const left = i % 2 === 0;
    const depth = between(r, 0.2, 1);
    const w = 30 + depth * 60;
    const h = 60 + depth * 120;
    const x = left ? 330 - depth * 300 + between(r, -10, 10) : 600 + depth * 260 - w + between(r, -10, 10);
    const y = 140 + between(r, -60, 140) * depth;
    const c = colours[Math.floor(r() * colours.length)]!;
    signs.push(
      `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" rx="6" fill="none" stroke="${c}" stroke-width="${f(2 + depth * 3)}" filter="url(#glow)"/><rect x="${f(x + w * 0.3)}" y="${f(y + h * 0.15)}" width="${f(w * 0.4)}" height="${f(h * 0.7)}" fill="${c}" opacity="0.75" filter="url(#glow)"/>`,
    );
  }
  const rain = Array.from({ length: 140 }, () => {
    const x = r() * 960;
    const y = r() * 720;
    return `<line x1="${f(x)}" y1="${f(y)}" x2="${f(x - 6)}" y2="${f(y + 28)}" stroke="#9fdcff" stroke-width="1" opacity="${f(between(r, 0.15, 0.45))}"/>`;
  }).join('');
  return `<defs>${linear('sky', ['#1a0b2e', '#2b1248', '#120a22'])}${linear('street', ['#140a24', '#05030a'])}<filter id="glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="6" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>${blur('b8', 8)}<clipPath id="wc"><rect y="470" width="960" height="250"/></clipPath></defs>
<rect width="960" height="720" fill="url(#sky)"/>
<polygon points="0,0 380,230 380,470 0,720" fill="#0d0718"/><polygon points="960,0 580,230 580,470 960,720" fill="#0b0615"/>
<rect x="380" y="230" width="200" height="240" fill="#1d1035"/><rect x="455" y="300" width="50" height="170" fill="#ffb347" opacity="0.35" filter="url(#b8)"/>
<g id="signs">${signs.join('')}</g>
<polygon points="0,720 380,470 580,470 960,720" fill="url(#street)"/>
<g clip-path="url(#wc)" opacity="0.35" filter="url(#b8)"><use href="#signs" transform="translate(0,940) scale(1,-1)"/></g>${rain}`;
};

const quietBloom: Scene = (r) => {
  const cx = between(r, 430, 530);
  const cy = between(r, 330, 390);
  const petals = Array.from({ length: 10 }, (_, i) => {
    const a = (i / 10) * 360 + between(r, -4, 4);
    return `<ellipse cx="${f(cx)}" cy="${f(cy - 110)}" rx="48" ry="120" fill="${i % 2 ? '#f9a8d4' : '#fbcfe8'}" opacity="0.75" transform="rotate(${f(a)} ${f(cx)} ${f(cy)})"/>`;
  }).join('');
  const inner = Array.from(
    { length: 8 },
    (_, i) => `<ellipse cx="${f(cx)}" cy="${f(cy - 60)}" rx="26" ry="64" fill="#fde68a" opacity="0.7" transform="rotate(${i * 45 + 22} ${f(cx)} ${f(cy)})"/>`,
  ).join('');
  const dots = Array.from(
    { length: 30 },
    () => `<circle cx="${f(r() * 960)}" cy="${f(r() * 720)}" r="${f(between(r, 3, 9))}" fill="#c4b5fd" opacity="0.4"/>`,
  ).join('');
  return `<defs>${linear('bg', ['#e0f2fe', '#fce7f3', '#ecfccb'])}${blur('soft', 2)}</defs><rect width="960" height="720" fill="url(#bg)"/>${dots}
<path d="M${f(cx)},${f(cy)} C${f(cx - 20)},500 ${f(cx + 30)},600 ${f(cx - 10)},720" stroke="#86c59c" stroke-width="10" fill="none"/><ellipse cx="${f(cx + 60)}" cy="590" rx="70" ry="24" fill="#a7d7b5" transform="rotate(-25 ${f(cx + 60)} 590)"/>
<g filter="url(#soft)">${petals}${inner}</g><circle cx="${f(cx)}" cy="${f(cy)}" r="34" fill="#f59e0b" opacity="0.85"/>`;
};

const desertMap: Scene = (r) => {
  const contours: string[] = [];
  for (let hill = 0; hill < 4; hill++) {
    const hx = between(r, 120, 840);
    const hy = between(r, 120, 600);
    for (let k = 1; k <= 7; k++) {
      const rx = k * between(r, 18, 26);
      const ry = rx * between(r, 0.5, 0.8);
      let d = '';
      for (let t = 0; t <= 24; t++) {
        const a = (t / 24) * Math.PI * 2;
        const wob = 1 + Math.sin(a * 3 + hill + k) * 0.08;
        d += `${t ? 'L' : 'M'}${f(hx + Math.cos(a) * rx * wob)},${f(hy + Math.sin(a) * ry * wob)}`;
      }
      contours.push(`<path d="${d}Z" fill="none" stroke="#8a5a2b" stroke-width="${k % 5 === 0 ? 2.2 : 1.1}" opacity="0.7"/>`);
    }
  }
  const dunes = Array.from(
    { length: 9 },
    (_, i) =>
      `<path d="${wave(80 + i * 75, 14, between(r, 300, 500), r() * 6, 80 + i * 75 + 3).replace(/L980,.*$/, '')}" fill="none" stroke="#b07a3f" stroke-width="1" opacity="0.45"/>`,
  ).join('');
  const rose = `<g transform="translate(820,600)"><circle r="56" fill="none" stroke="#6b3f1d" stroke-width="2"/><polygon points="0,-70 10,0 0,70 -10,0" fill="#6b3f1d"/><polygon points="-70,0 0,10 70,0 0,-10" fill="#a0652d"/><circle r="6" fill="#f3e0b9"/></g>`;
  const route = `<path d="M80,640 C220,520 300,600 420,430 S640,260 780,140" fill="none" stroke="#b91c1c" stroke-width="3" stroke-dasharray="10 8"/><circle cx="780" cy="140" r="9" fill="#b91c1c"/>`;
  return `<defs>${radial('paper', [
    ['#f6e3b8', 1],
    ['#e7c58c', 1],
    ['#b98a4e', 1],
  ])}</defs><rect width="960" height="720" fill="url(#paper)"/>${dunes}${contours.join('')}${route}${rose}<rect x="16" y="16" width="928" height="688" fill="none" stroke="#6b3f1d" stroke-width="4"/><rect x="28" y="28" width="904" height="664" fill="none" stroke="#6b3f1d" stroke-width="1.2"/>`;
};

const glasshouse: Scene = (r) => {
  const panes: string[] = [];
  for (let x = 140; x <= 820; x += 85) panes.push(`<line x1="${x}" y1="0" x2="${x}" y2="720" stroke="#f5f5f0" stroke-width="6" opacity="0.8"/>`);
  for (let y = 260; y < 720; y += 90) panes.push(`<line x1="60" y1="${y}" x2="900" y2="${y}" stroke="#f5f5f0" stroke-width="4" opacity="0.7"/>`);
  const ferns = Array.from({ length: 9 }, (_, i) => {
    const x = 60 + i * 105 + between(r, -20, 20);
    const h = between(r, 150, 260);
    const fronds = Array.from({ length: 7 }, (_, k) => {
      const a = -70 + k * 23 + between(r, -6, 6);
      const colour = k % 2 ? '#2f7d46' : '#3f9a58';
      const leaflets: string[] = [];
      for (let t = 0.12; t < 0.97; t += 0.07) {
        const x = 2 * (1 - t) * t * h * 0.2 + t * t * h * 0.08;
        const y = 2 * (1 - t) * t * -h * 0.6 + t * t * -h;
        const len = 26 * (1 - t) + 6;
        for (const side of [-1, 1]) {
          leaflets.push(
            `<ellipse cx="${f(x + (side * len) / 2)}" cy="${f(y - len * 0.25)}" rx="${f(len / 2)}" ry="${f(3 + (1 - t) * 3)}" fill="${colour}" transform="rotate(${side * -28} ${f(x)} ${f(y)})"/>`,
          );
        }
      }
      return `<g transform="rotate(${f(a)})"><path d="M0,0 Q${f(h * 0.2)},${f(-h * 0.6)} ${f(h * 0.08)},${f(-h)}" stroke="#25623a" stroke-width="4" fill="none"/>${leaflets.join('')}</g>`;
    }).join('');
    return `<g transform="translate(${f(x)},720)">${fronds}</g>`;
  }).join('');
  const rays = Array.from(
    { length: 6 },
    (_, i) => `<polygon points="${180 + i * 110},0 ${240 + i * 110},0 ${520 + i * 90},720 ${420 + i * 90},720" fill="#fff7cc" opacity="0.16"/>`,
  ).join('');
  return `<defs>${linear('sky', ['#fff3c4', '#cfe9d6', '#9cc9a8'])}${blur('b4', 4)}</defs><rect width="960" height="720" fill="url(#sky)"/>
<path d="M60,720 L60,260 Q480,-40 900,260 L900,720" fill="#e8f5e9" opacity="0.35"/><clipPath id="arch"><path d="M60,720 L60,260 Q480,-40 900,260 L900,720Z"/></clipPath><g clip-path="url(#arch)">${panes.join('')}</g><path d="M60,720 L60,260 Q480,-40 900,260 L900,720" fill="none" stroke="#f5f5f0" stroke-width="10"/><g filter="url(#b4)">${rays}</g>${ferns}<rect y="690" width="960" height="30" fill="#4b3a2a"/>`;
};

const orbit: Scene = (r) => {
  const cx = 470;
  const cy = 370;
  const rings = Array.from(
    { length: 7 },
    (_, i) =>
      `<circle cx="${cx}" cy="${cy}" r="${80 + i * 42}" fill="none" stroke="${i === 6 ? '#ef4444' : '#f5f0e6'}" stroke-width="${i === 6 ? 6 : 2}" opacity="${i === 6 ? 1 : 0.55}"/>`,
  ).join('');
  const sats = Array.from({ length: 7 }, (_, i) => {
    const a = r() * Math.PI * 2;
    const rad = 80 + i * 42;
    return `<circle cx="${f(cx + Math.cos(a) * rad)}" cy="${f(cy + Math.sin(a) * rad)}" r="${f(between(r, 7, 18))}" fill="${['#fbbf24', '#f5f0e6', '#ef4444', '#38bdf8'][i % 4]}"/>`;
  }).join('');
  return `<defs>${radial('sun', [
    ['#fde047', 1],
    ['#f97316', 1],
  ])}</defs><rect width="960" height="720" fill="#101a3a"/><rect x="0" y="0" width="960" height="720" fill="none" stroke="#f5f0e6" stroke-width="26"/>${rings}<circle cx="${cx}" cy="${cy}" r="56" fill="url(#sun)"/>${sats}<line x1="40" y1="670" x2="920" y2="670" stroke="#f5f0e6" stroke-width="3"/>`;
};

const harbour: Scene = (r) => {
  const boats = Array.from({ length: 5 }, (_, i) => {
    const x = 90 + i * 180 + between(r, -30, 30);
    const y = 520 + between(r, -10, 25);
    const s = between(r, 0.7, 1.1);
    const hull = `<path d="M${f(x - 70 * s)},${f(y)} L${f(x + 70 * s)},${f(y)} L${f(x + 50 * s)},${f(y + 26 * s)} L${f(x - 55 * s)},${f(y + 26 * s)}Z" fill="#1b1320"/>`;
    const mast = `<line x1="${f(x)}" y1="${f(y)}" x2="${f(x)}" y2="${f(y - 150 * s)}" stroke="#1b1320" stroke-width="3"/><path d="M${f(x + 3)},${f(y - 140 * s)} L${f(x + 60 * s)},${f(y - 10)} L${f(x + 3)},${f(y - 10)}Z" fill="#2a1c2c" opacity="0.9"/><rect x="${f(x - 30 * s)}" y="${f(y - 24 * s)}" width="${f(34 * s)}" height="${f(24 * s)}" fill="#1b1320"/>`;
    return hull + mast;
  }).join('');
  const ripples = Array.from(
    { length: 40 },
    () =>
      `<rect x="${f(r() * 900)}" y="${f(between(r, 560, 710))}" width="${f(between(r, 30, 120))}" height="2" fill="#ffcf99" opacity="${f(between(r, 0.1, 0.4))}"/>`,
  ).join('');
  return `<defs>${linear('sky', ['#2b1b3d', '#8c3b4a', '#e0733a', '#f6b26b'])}${linear('sea', ['#6b3a3f', '#1c1424'])}${radial('sun', [
    ['#fff1c1', 1],
    ['#ffb86b', 0.6],
    ['#ff8a3d', 0],
  ])}</defs><rect width="960" height="560" fill="url(#sky)"/><circle cx="640" cy="500" r="200" fill="url(#sun)"/><circle cx="640" cy="520" r="56" fill="#ffe2a8"/>
${ridge(r, 470, 40, 0.5, '#3b2537', 'opacity="0.8"')}<rect y="540" width="960" height="180" fill="url(#sea)"/><rect x="600" y="545" width="80" height="170" fill="#ffcf99" opacity="0.25"/>${ripples}${boats}<rect y="690" width="960" height="30" fill="#120c16"/>`;
};

const stairwell: Scene = (r) => {
  const cx = 480 + between(r, -30, 30);
  const cy = 360 + between(r, -20, 20);
  const steps: string[] = [];
  for (let k = 0; k < 110; k++) {
    const a = k * 0.36;
    const rad = 460 * Math.exp(-k * 0.021);
    const rad2 = rad * 0.82;
    const a2 = a + 0.36;
    const shade = 70 + ((k * 37) % 5) * 18 + (k % 2) * 30;
    steps.push(
      `<path d="M${f(cx + Math.cos(a) * rad)},${f(cy + Math.sin(a) * rad)} L${f(cx + Math.cos(a2) * rad)},${f(cy + Math.sin(a2) * rad)} L${f(cx + Math.cos(a2) * rad2)},${f(cy + Math.sin(a2) * rad2)} L${f(cx + Math.cos(a) * rad2)},${f(cy + Math.sin(a) * rad2)}Z" fill="rgb(${shade},${shade},${shade})"/>`,
    );
  }
  return `<defs>${radial('hole', [
    ['#f4f4f4', 1],
    ['#9a9a9a', 1],
  ])}${radial('vig', [
    ['#000', 0],
    ['#000', 0.7],
  ])}</defs><rect width="960" height="720" fill="#2c2c2c"/>${steps.join('')}<circle cx="${f(cx)}" cy="${f(cy)}" r="38" fill="url(#hole)"/><rect width="960" height="720" fill="url(#vig)"/>`;
};

const citrus: Scene = (r) => {
  const colours = ['#ff9f1c', '#ffbf69', '#c5e063', '#8ac926', '#ffd166', '#f77f00', '#b5e48c'];
  const bands = Array.from(
    { length: 10 },
    (_, i) => `<path d="${wave(-20 + i * 78, between(r, 18, 34), between(r, 260, 420), r() * 6)}" fill="${colours[i % colours.length]}"/>`,
  ).join('');
  const slices = Array.from({ length: 3 }, (_, i) => {
    const x = 200 + i * 290 + between(r, -40, 40);
    const y = between(r, 200, 520);
    const segs = Array.from(
      { length: 8 },
      (_, k) =>
        `<path d="M0,0 L${f(Math.cos((k * Math.PI) / 4 + 0.1) * 60)},${f(Math.sin((k * Math.PI) / 4 + 0.1) * 60)} A60,60 0 0 1 ${f(Math.cos(((k + 1) * Math.PI) / 4 - 0.1) * 60)},${f(Math.sin(((k + 1) * Math.PI) / 4 - 0.1) * 60)}Z" fill="${i === 1 ? '#d9f99d' : '#fed7aa'}"/>`,
    ).join('');
    return `<g transform="translate(${f(x)},${f(y)})"><circle r="76" fill="${i === 1 ? '#65a30d' : '#ea580c'}"/><circle r="68" fill="#fff7ed"/>${segs}</g>`;
  }).join('');
  return `<rect width="960" height="720" fill="#fff3b0"/>${bands}${slices}`;
};

const lanterns: Scene = (r) => {
  const items: string[] = [];
  for (let i = 0; i < 46; i++) {
    const depth = r();
    const x = r() * 960;
    const y = 60 + depth * 440 + between(r, -40, 40);
    const s = 6 + depth * 22;
    items.push(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s * 2.4)}" fill="url(#halo)"/><rect x="${f(x - s * 0.6)}" y="${f(y - s * 0.8)}" width="${f(s * 1.2)}" height="${f(s * 1.6)}" rx="${f(s * 0.4)}" fill="url(#lamp)"/>`,
    );
  }
  return `<defs>${linear('sky', ['#070b24', '#1c1446', '#3a1d4f'])}${radial('halo', [
    ['#ffb347', 0.55],
    ['#ff7a18', 0],
  ])}${linear('lamp', ['#ffe8a3', '#ff9a3c', '#e85d04'])}${linear('river', ['#1b1438', '#07060f'])}${blur('b6', 6)}<clipPath id="wc"><rect y="540" width="960" height="180"/></clipPath></defs>
<rect width="960" height="720" fill="url(#sky)"/>${stars(r, 60, 300)}${ridge(r, 520, 30, 0.5, '#0d0a1f')}<g id="lan">${items.join('')}</g>
<rect y="540" width="960" height="180" fill="url(#river)"/><g clip-path="url(#wc)" opacity="0.45" filter="url(#b6)"><use href="#lan" transform="translate(0,1080) scale(1,-1)"/></g>`;
};

const alpineLake: Scene = (r) => {
  const peaks = `${ridge(r, 250, 150, 0.6, '#6b7f99')}${ridge(r, 330, 90, 0.55, '#3f5873')}`;
  const snow = `<g clip-path="url(#snowline)">${peaks.replace(/fill="#6b7f99"/, 'fill="#f1f5f9"').replace(/fill="#3f5873"/, 'fill="#e2e8f0"')}</g>`;
  const pines = Array.from({ length: 40 }, () => {
    const x = r() * 960;
    const h = between(r, 30, 70);
    return `<polygon points="${f(x)},${f(430 - h)} ${f(x - h * 0.28)},430 ${f(x + h * 0.28)},430" fill="#14361f"/>`;
  }).join('');
  const zig = Array.from({ length: 49 }, (_, i) => `${i * 20},${f(165 + (i % 2 ? 22 : 0) + between(r, -10, 14))}`).join(' ');
  const snowline = `0,0 960,0 ${zig.split(' ').reverse().join(' ')}`;
  return `<defs>${linear('sky', ['#5fa8e8', '#a9d4f5', '#e6f3fb'])}${linear('lake', ['#3d6e94', '#1d3a52'])}<clipPath id="snowline"><polygon points="${snowline}"/></clipPath><clipPath id="wc"><rect y="432" width="960" height="288"/></clipPath>${blur('b2', 2)}</defs>
<rect width="960" height="440" fill="url(#sky)"/><ellipse cx="260" cy="120" rx="120" ry="26" fill="#fff" opacity="0.7"/><ellipse cx="700" cy="90" rx="90" ry="18" fill="#fff" opacity="0.6"/>
<g id="mt">${peaks}${snow}<rect y="400" width="960" height="32" fill="#254a2f"/>${pines}</g>
<rect y="432" width="960" height="288" fill="url(#lake)"/><g clip-path="url(#wc)" opacity="0.55" filter="url(#b2)"><use href="#mt" transform="translate(0,864) scale(1,-1)"/></g><rect y="432" width="960" height="2" fill="#fff" opacity="0.5"/>`;
};

const velvet: Scene = () => {
  const sets: Array<[string, string, string]> = [
    ['#3b0a45', '#8e1b5b', '#e05780'],
    ['#0b1d51', '#3a2e8c', '#8c6bd8'],
    ['#0f3b3a', '#1b6b5f', '#7bd3b0'],
    ['#40110a', '#8a2b0e', '#e2842c'],
  ];
  const panels = sets
    .map(([a, b, c], i) => {
      const x = 40 + (i % 2) * 450;
      const y = 40 + Math.floor(i / 2) * 330;
      return `<defs>${radial(
        `v${i}`,
        [
          [c, 1],
          [b, 1],
          [a, 1],
        ],
        0.3,
        0.25,
        0.9,
      )}</defs><rect x="${x}" y="${y}" width="430" height="310" rx="22" fill="url(#v${i})"/><rect x="${x}" y="${y}" width="430" height="310" rx="22" fill="url(#sheen)"/>`;
    })
    .join('');
  return `<defs>${linear('sheen', ['#ffffff', '#ffffff00'])}</defs><rect width="960" height="720" fill="#0c0a10"/>${panels.replace(/url\(#sheen\)"/g, 'url(#sheen)" opacity="0.08"')}`;
};

const portrait: Scene = (r) => {
  const tilt = between(r, -4, 4);
  return `<defs>${radial(
    'bg',
    [
      ['#5a4632', 1],
      ['#1a120c', 1],
    ],
    0.62,
    0.35,
    0.75,
  )}${linear('rim', ['#ffd59a', '#ff9f5a'])}${blur('b10', 10)}${blur('b3', 3)}</defs>
<rect width="960" height="720" fill="url(#bg)"/><circle cx="660" cy="220" r="160" fill="#ffcf8a" opacity="0.18" filter="url(#b10)"/>
<g transform="rotate(${f(tilt)} 480 420)"><path d="M250,720 C260,600 330,540 420,520 L430,470 C370,440 350,370 355,300 C360,200 420,150 490,150 C570,150 625,210 620,310 C615,380 590,440 540,470 L545,520 C640,540 700,600 710,720Z" fill="#0c0806"/>
<path d="M620,300 C616,380 590,440 540,470 L545,520 C640,540 700,600 710,720" fill="none" stroke="url(#rim)" stroke-width="6" filter="url(#b3)"/>
<path d="M490,150 C570,150 625,210 620,300" fill="none" stroke="url(#rim)" stroke-width="5" filter="url(#b3)"/></g>
<rect width="960" height="70" fill="#000"/><rect y="650" width="960" height="70" fill="#000"/>`;
};

const isometric: Scene = (r) => {
  const blocks: string[] = [];
  const tile = 56;
  const ox = 480;
  const oy = 200;
  const cells: Array<[number, number]> = [];
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) cells.push([i, j]);
  const tops = ['#fca5a5', '#93c5fd', '#fde68a', '#a7f3d0', '#ddd6fe', '#fdba74'];
  for (const [i, j] of cells) {
    const x = ox + (i - j) * tile;
    const y = oy + (i + j) * tile * 0.5;
    const road = i === 2 || j === 3;
    if (road) {
      blocks.push(`<polygon points="${x},${y} ${x + tile},${y + tile / 2} ${x},${y + tile} ${x - tile},${y + tile / 2}" fill="#64748b"/>`);
      continue;
    }
    const h = r() < 0.25 ? 8 : between(r, 30, 140);
    const top = h < 10 ? '#86efac' : tops[Math.floor(r() * tops.length)]!;
    blocks.push(
      `<polygon points="${x - tile},${y + tile / 2} ${x},${y + tile} ${x},${f(y + tile - h)} ${x - tile},${f(y + tile / 2 - h)}" fill="#475569"/><polygon points="${x + tile},${y + tile / 2} ${x},${y + tile} ${x},${f(y + tile - h)} ${x + tile},${f(y + tile / 2 - h)}" fill="#334155"/><polygon points="${x},${f(y - h)} ${x + tile},${f(y + tile / 2 - h)} ${x},${f(y + tile - h)} ${x - tile},${f(y + tile / 2 - h)}" fill="${top}"/>`,
    );
  }
  return `<defs>${linear('bg', ['#e0f2fe', '#c7d2fe'])}</defs><rect width="960" height="720" fill="url(#bg)"/><polygon points="${ox},${oy - 20} ${ox + tile * 6 + 30},${oy + tile * 3} ${ox},${oy + tile * 6 + 20} ${ox - tile * 6 - 30},${oy + tile * 3}" fill="#cbd5e1"/>${blocks.join('')}`;
};

const watercolour: Scene = (r) => {
  const hues = ['#f472b6', '#fb7185', '#c084fc', '#fbbf24', '#f9a8d4'];
  const flowers = Array.from({ length: 6 }, (_, i) => {
    const x = 120 + i * 150 + between(r, -30, 30);
    const y = between(r, 200, 420);
    const c = hues[i % hues.length]!;
    const petals = Array.from(
      { length: 6 },
      (_, k) => `<circle cx="${f(x + Math.cos(k) * 34)}" cy="${f(y + Math.sin(k) * 34)}" r="${f(between(r, 26, 36))}" fill="${c}" opacity="0.45"/>`,
    ).join('');
    return `<path d="M${f(x)},${f(y)} Q${f(x + between(r, -40, 40))},${f(y + 150)} ${f(x + between(r, -20, 20))},640" stroke="#65a30d" stroke-width="5" fill="none" opacity="0.7"/><ellipse cx="${f(x + 24)}" cy="${f(y + 160)}" rx="34" ry="12" fill="#84cc16" opacity="0.45" transform="rotate(-30 ${f(x + 24)} ${f(y + 160)})"/><g filter="url(#wet)">${petals}</g><circle cx="${f(x)}" cy="${f(y)}" r="10" fill="#a16207" opacity="0.7"/>`;
  }).join('');
  return `<defs><filter id="wet" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="5"/></filter>${radial('paper', [
    ['#fffdf7', 1],
    ['#f3ead8', 1],
  ])}</defs><rect width="960" height="720" fill="url(#paper)"/>${flowers}`;
};

const productStudio: Scene = (r) => {
  const hue = Math.floor(between(r, 180, 220));
  return `<defs>${linear('bg', [`hsl(${hue} 30% 92%)`, `hsl(${hue} 25% 80%)`])}${linear('glass', ['#1f7a6b', '#0e3d36'], false)}${radial('shadow', [
    ['#000', 0.35],
    ['#000', 0],
  ])}${linear('hl', ['#ffffff', '#ffffff00'], false)}</defs>
<rect width="960" height="720" fill="url(#bg)"/><ellipse cx="480" cy="600" rx="220" ry="34" fill="url(#shadow)"/>
<rect x="400" y="270" width="160" height="330" rx="36" fill="url(#glass)"/><rect x="445" y="200" width="70" height="80" rx="10" fill="#0b2f2a"/><rect x="430" y="170" width="100" height="40" rx="10" fill="#c8a35a"/>
<rect x="420" y="380" width="120" height="120" rx="6" fill="#f5efe3"/><circle cx="480" cy="430" r="26" fill="none" stroke="#1f7a6b" stroke-width="4"/><rect x="445" y="470" width="70" height="6" rx="3" fill="#1f7a6b"/>
<rect x="415" y="290" width="22" height="280" rx="11" fill="url(#hl)" opacity="0.45"/>
<rect x="620" y="470" width="120" height="130" rx="16" fill="#e7d8c4"/><ellipse cx="680" cy="602" rx="80" ry="14" fill="url(#shadow)"/>`;
};

const retroPoster: Scene = (r) => {
  const dots: string[] = [];
  for (let y = 0; y < 720; y += 18)
    for (let x = (y / 18) % 2 ? 9 : 0; x < 960; x += 18) dots.push(`<circle cx="${x}" cy="${y}" r="${f(1 + (y / 720) * 5)}" fill="#7c2d12" opacity="0.35"/>`);
  const tilt = between(r, -25, -15);
  return `<defs>${linear('sky', ['#f97316', '#facc15', '#fef3c7'])}</defs><rect width="960" height="720" fill="url(#sky)"/>${dots.join('')}
<circle cx="720" cy="180" r="110" fill="#dc2626"/><ellipse cx="720" cy="180" rx="190" ry="30" fill="none" stroke="#1e3a8a" stroke-width="10" transform="rotate(-15 720 180)"/>
<g transform="translate(380,360) rotate(${f(tilt)})"><path d="M0,-220 C60,-140 70,-20 50,120 L-50,120 C-70,-20 -60,-140 0,-220Z" fill="#e5e7eb" stroke="#1f2937" stroke-width="8"/><circle cy="-70" r="28" fill="#38bdf8" stroke="#1f2937" stroke-width="8"/><path d="M-50,60 L-110,160 L-46,120Z M50,60 L110,160 L46,120Z" fill="#dc2626" stroke="#1f2937" stroke-width="6"/><path d="M-34,124 L0,240 L34,124Z" fill="#fb923c"/></g>
${ridge(r, 620, 40, 0.5, '#1e3a8a')}`;
};

const characterSheet: Scene = () => {
  const figure = (x: number, view: 'front' | 'side' | 'back') => {
    const hair =
      view === 'back'
        ? `<path d="M${x - 52},200 C${x - 60},120 ${x + 60},120 ${x + 52},200 L${x + 56},290 L${x - 56},290Z" fill="#4c1d95"/>`
        : `<path d="M${x - 54},190 C${x - 60},110 ${x + 60},110 ${x + 54},190 L${x + 40},160 L${x - 40},160Z" fill="#4c1d95"/>`;
    const face =
      view === 'back'
        ? ''
        : view === 'side'
          ? `<ellipse cx="${x + 4}" cy="200" rx="40" ry="48" fill="#fde2cf"/><circle cx="${x + 24}" cy="196" r="6" fill="#1e1b4b"/>`
          : `<ellipse cx="${x}" cy="200" rx="48" ry="52" fill="#fde2cf"/><circle cx="${x - 18}" cy="198" r="8" fill="#1e1b4b"/><circle cx="${x + 18}" cy="198" r="8" fill="#1e1b4b"/>`;
    const bodyW = view === 'side' ? 34 : 56;
    return `${view === 'back' ? '' : hair}${face}${view === 'back' ? hair : ''}<rect x="${x - bodyW}" y="255" width="${bodyW * 2}" height="150" rx="24" fill="#0ea5e9"/><rect x="${x - bodyW + 6}" y="400" width="${bodyW * 0.8}" height="170" rx="14" fill="#1e293b"/><rect x="${x + bodyW * 0.2 - 6}" y="400" width="${bodyW * 0.8}" height="170" rx="14" fill="#1e293b"/><rect x="${x - bodyW - 18}" y="265" width="18" height="130" rx="9" fill="#fde2cf"/><rect x="${x + bodyW}" y="265" width="18" height="130" rx="9" fill="#fde2cf"/>`;
  };
  const swatches = ['#4c1d95', '#fde2cf', '#0ea5e9', '#1e293b', '#f43f5e']
    .map((c, i) => `<rect x="${250 + i * 96}" y="620" width="76" height="56" rx="10" fill="${c}" stroke="#94a3b8"/>`)
    .join('');
  return `<rect width="960" height="720" fill="#f8fafc"/>${Array.from({ length: 24 }, (_, i) => `<line x1="0" y1="${i * 30}" x2="960" y2="${i * 30}" stroke="#e2e8f0"/>`).join('')}${figure(200, 'front')}${figure(480, 'side')}${figure(760, 'back')}${swatches}`;
};

const cozyInterior: Scene = (r) => {
  const books = Array.from({ length: 18 }, (_, i) => {
    const h = between(r, 50, 80);
    return `<rect x="${600 + i * 16}" y="${f(250 - h)}" width="14" height="${f(h)}" fill="${['#9a3412', '#78350f', '#365314', '#1e3a8a', '#7c2d12', '#a16207'][i % 6]}"/>`;
  }).join('');
  const snow = Array.from(
    { length: 30 },
    () => `<circle cx="${f(between(r, 110, 390))}" cy="${f(between(r, 130, 420))}" r="2" fill="#fff" opacity="0.8"/>`,
  ).join('');
  return `<defs>${linear('wall', ['#5b3a29', '#3b2418'])}${radial('lamp', [
    ['#ffd27a', 0.75],
    ['#ffb347', 0],
  ])}${linear('night', ['#0b1a3a', '#1f3a6b'])}</defs>
<rect width="960" height="720" fill="url(#wall)"/><rect x="100" y="120" width="300" height="310" fill="url(#night)" stroke="#2a170e" stroke-width="16"/>${snow}<line x1="250" y1="120" x2="250" y2="430" stroke="#2a170e" stroke-width="10"/><line x1="100" y1="275" x2="400" y2="275" stroke="#2a170e" stroke-width="10"/>
<rect x="590" y="160" width="300" height="100" fill="#2a170e"/>${books}<rect x="590" y="250" width="300" height="10" fill="#1c0f08"/>
<circle cx="520" cy="380" r="260" fill="url(#lamp)"/><path d="M490,250 L550,250 L570,300 L470,300Z" fill="#f4c77b"/><rect x="516" y="300" width="8" height="200" fill="#2a170e"/>
<path d="M200,720 L210,520 C210,470 420,470 430,520 L440,720Z" fill="#8b2e2e"/><rect x="180" y="560" width="60" height="160" rx="24" fill="#7a2626"/><rect x="400" y="560" width="60" height="160" rx="24" fill="#7a2626"/>
<rect y="680" width="960" height="40" fill="#2a170e"/><rect x="560" y="640" width="260" height="14" rx="7" fill="#c2410c" opacity="0.6"/>`;
};

const logoGrid: Scene = (r) => {
  const marks = [
    (x: number, y: number, c: string) =>
      `<circle cx="${x}" cy="${y}" r="60" fill="none" stroke="${c}" stroke-width="16"/><circle cx="${x + 30}" cy="${y}" r="22" fill="${c}"/>`,
    (x: number, y: number, c: string) =>
      `<polygon points="${x},${y - 70} ${x + 66},${y + 50} ${x - 66},${y + 50}" fill="${c}"/><polygon points="${x},${y - 20} ${x + 28},${y + 30} ${x - 28},${y + 30}" fill="#fff"/>`,
    (x: number, y: number, c: string) =>
      `<rect x="${x - 60}" y="${y - 60}" width="56" height="56" rx="12" fill="${c}"/><rect x="${x + 4}" y="${y + 4}" width="56" height="56" rx="28" fill="${c}"/><rect x="${x + 4}" y="${y - 60}" width="56" height="56" fill="none" stroke="${c}" stroke-width="10"/>`,
    (x: number, y: number, c: string) =>
      `<path d="M${x - 70},${y + 40} Q${x},${y - 110} ${x + 70},${y + 40}" fill="none" stroke="${c}" stroke-width="18" stroke-linecap="round"/><circle cx="${x}" cy="${y + 30}" r="16" fill="${c}"/>`,
    (x: number, y: number, c: string) =>
      `<path d="M${x - 60},${y + 60} L${x - 60},${y - 60} L${x + 60},${y + 60} L${x + 60},${y - 60}" fill="none" stroke="${c}" stroke-width="20" stroke-linejoin="round"/>`,
    (x: number, y: number, c: string) =>
      `<circle cx="${x - 24}" cy="${y}" r="48" fill="${c}" opacity="0.8"/><circle cx="${x + 24}" cy="${y}" r="48" fill="${c}" opacity="0.5"/>`,
  ];
  const colours = ['#111827', '#2563eb', '#dc2626', '#059669', '#7c3aed', '#ea580c'];
  const start = Math.floor(r() * 6);
  const cells = marks
    .map((m, i) => {
      const x = 170 + (i % 3) * 310;
      const y = 190 + Math.floor(i / 3) * 340;
      return `<rect x="${x - 140}" y="${y - 150}" width="280" height="300" rx="20" fill="#fff" stroke="#e5e7eb" stroke-width="2"/>${m(x, y, colours[(i + start) % colours.length]!)}`;
    })
    .join('');
  return `<rect width="960" height="720" fill="#f3f4f6"/>${cells}`;
};

/** A generic landscape for works without their own scene: hills, a sun or moon, a coloured sky. */
function landscape(name: string): Scene {
  return (r) => {
    const hue = Math.floor(r() * 360);
    const night = r() < 0.4;
    const sky = night ? [`hsl(${hue} 50% 8%)`, `hsl(${hue} 45% 22%)`] : [`hsl(${hue} 70% 70%)`, `hsl(${(hue + 40) % 360} 80% 85%)`];
    const layers = [0, 1, 2, 3]
      .map((i) => ridge(r, 330 + i * 90, 90 - i * 15, 0.55, `hsl(${(hue + 180) % 360} 30% ${night ? 10 + i * 4 : 55 - i * 12}%)`))
      .join('');
    return `<defs>${linear('sky', sky)}</defs><rect width="960" height="720" fill="url(#sky)"/>${night ? stars(r, 120, 400) : ''}<circle cx="${f(between(r, 150, 810))}" cy="${f(between(r, 110, 250))}" r="${f(between(r, 40, 80))}" fill="${night ? '#f1f5f9' : '#fff7d6'}" opacity="0.9"/>${layers}<!-- ${name.replace(/-/g, ' ')} -->`;
  };
}

const scenes: Record<string, Scene> = {
  'aurora-over-fjords': aurora,
  'neon-tokyo-alley': neonAlley,
  'quiet-bloom': quietBloom,
  'desert-cartography': desertMap,
  'glasshouse-morning': glasshouse,
  'orbit-study-no-7': orbit,
  'harbour-at-dusk': harbour,
  'brutalist-stairwell': stairwell,
  'citrus-waves': citrus,
  'lantern-festival': lanterns,
  'alpine-lake-mirror': alpineLake,
  'velvet-gradient-set': velvet,
  'cinematic-portrait-prompt': portrait,
  'isometric-city-builder': isometric,
  'watercolor-botanicals': watercolour,
  'product-photo-studio': productStudio,
  'retro-sci-fi-posters': retroPoster,
  'anime-character-sheet': characterSheet,
  'cozy-interior-scenes': cozyInterior,
  'logo-concept-explorer': logoGrid,
};

export function hasScene(slug: string): boolean {
  return slug in scenes;
}

/** The scene of a work as a standalone SVG document of the given pixel size. */
export function sceneSvg(slug: string, width: number, height: number): string {
  const scene = scenes[slug] ?? landscape(slug);
  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}" viewBox="0 0 ${VIEW_W} ${VIEW_H}" preserveAspectRatio="xMidYMid slice">${scene(rngFor(slug))}</svg>`;
}
