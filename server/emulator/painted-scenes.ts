// The subjects the emulator's generated images can show, each painted from layered shapes on a
// Raster (raster.ts): sky gradients, sun and moon, ridgelines, dunes, waves, trees, buildings,
// stars and aurora, a studio portrait and a product shot. A prompt picks its subject by its words
// (SUBJECTS, first match wins); the seed (a task id, or a demo image's variant) moves the sun,
// reshapes ridges and skylines and shifts the palette, so the images of one request differ.
import { gradientAt, hex, mix, noise1d, Raster, seededRandom, type Rgb } from './raster';

interface Paint {
  r: Raster;
  w: number;
  h: number;
  /** The short side: sizes of round things. */
  s: number;
  random: () => number;
  /** Between lo and hi. */
  between: (lo: number, hi: number) => number;
  /** The prompt, lower case: painters read a few more words (night, sunset, snow). */
  words: string;
}

type Painter = (p: Paint) => void;

const WHITE: Rgb = [1, 1, 1];

function stars(p: Paint, count: number, maxY: number) {
  for (let i = 0; i < count; i++) {
    const x = Math.floor(p.random() * p.w);
    const y = Math.floor(p.random() * maxY);
    const bright = p.random() ** 3;
    p.r.add(x, y, mix([0.8, 0.85, 1], [1, 0.95, 0.85], p.random()), 0.25 + bright * 0.9);
    if (bright > 0.7) p.r.glow(x, y, p.s * 0.004, [0.7, 0.8, 1], 0.35);
  }
}

/** A ridgeline: its height in pixels at x, from a noise of `rough` detail around `base`. */
function ridge(p: Paint, base: number, amp: number, scale: number, octaves = 5) {
  const n = noise1d(p.random);
  const phase = p.random() * 100;
  return (x: number) => base - amp * n((x / p.w) * scale + phase, octaves);
}

function sun(p: Paint, x: number, y: number, radius: number, core: Rgb, halo: Rgb) {
  p.r.glow(x, y, radius * 9, halo, 0.35);
  p.r.glow(x, y, radius * 3, halo, 0.5);
  p.r.disc(x, y, radius, core);
}

/** Long soft clouds: rows of overlapping glows, lit in `c`. */
function clouds(p: Paint, count: number, top: number, bottom: number, c: Rgb, k: number) {
  for (let i = 0; i < count; i++) {
    const cy = p.between(top, bottom);
    const cx = p.random() * p.w;
    const len = p.between(0.15, 0.4) * p.w;
    for (let t = 0; t < 8; t++) {
      const x = cx + (t / 7 - 0.5) * len;
      const r = p.s * p.between(0.02, 0.045);
      const y = cy + p.between(-0.4, 0.4) * r;
      for (let yy = Math.floor(y - r); yy < y + r; yy++)
        for (let xx = Math.floor(x - r * 2.4); xx < x + r * 2.4; xx++) {
          const d = ((xx - x) / (r * 2.4)) ** 2 + ((yy - y) / r) ** 2;
          if (d < 1) p.r.blend(xx, yy, c, k * (1 - d) ** 2);
        }
    }
  }
}

const warmSky = (p: Paint): [number, Rgb][] =>
  p.random() < 0.5
    ? [
        [0, hex('#1d2b53')],
        [0.35, hex('#7e3f6e')],
        [0.62, hex('#f08a5d')],
        [0.8, hex('#ffd39a')],
      ]
    : [
        [0, hex('#243b6b')],
        [0.4, hex('#c0587e')],
        [0.65, hex('#fb9b62')],
        [0.82, hex('#ffe2a8')],
      ];

const ocean: Painter = (p) => {
  const horizon = p.h * p.between(0.5, 0.6);
  const day = !/sunset|golden|evening|dusk|warm|sunrise|dawn/.test(p.words) && p.random() < 0.5;
  const sky: [number, Rgb][] = day
    ? [
        [0, hex('#2f6fb5')],
        [0.5, hex('#8cc3ea')],
        [0.62, hex('#dff0fb')],
      ]
    : warmSky(p);
  p.r.verticalGradient(sky.map(([t, c]) => [t * (horizon / p.h) * 1.6, c] as const));
  const sx = p.w * p.between(0.3, 0.7);
  const sy = horizon - p.s * p.between(0.05, 0.16);
  const core: Rgb = day ? [1, 1, 0.96] : hex('#fff1c4');
  sun(p, sx, sy, p.s * 0.045, core, day ? [1, 0.98, 0.9] : hex('#ffb46b'));
  clouds(p, 7, horizon * 0.15, horizon * 0.8, day ? WHITE : hex('#ffb0a0'), day ? 0.55 : 0.45);
  const deep: Rgb = day ? hex('#0f3d66') : hex('#2a2348');
  const near: Rgb = day ? hex('#2a78a8') : hex('#7a4a6a');
  const waves = noise1d(p.random);
  p.r.fillBelow(
    () => horizon,
    (x, y) => {
      const t = (y - horizon) / (p.h - horizon);
      const base = mix(mix(sky.at(-1)![1], near, Math.min(1, t * 6)), deep, t);
      // Waves: horizontal streaks that get longer and further apart nearer the viewer.
      const z = 1 / (t + 0.04);
      const streak = waves(x / (p.w * (0.04 + t * 0.5)) + z * 3.1, 3);
      const glitterWidth = p.w * (0.03 + t * 0.35);
      const onPath = Math.exp(-(((x - sx) / glitterWidth) ** 2));
      const light = Math.max(0, streak) * (0.25 + onPath * 1.6);
      return mix(base, core, Math.min(0.9, light * (day ? 0.5 : 0.8)));
    },
  );
  p.r.haze(horizon, p.s * 0.01, sky.at(-1)![1], 0.5);
};

function paintMountains(p: Paint, top: number, bottom: number) {
  const night = /night|moon|stars|blue hour/.test(p.words);
  const snowy = /snow|winter|alps|peak|glacier|ice/.test(p.words);
  const sky: [number, Rgb][] = night
    ? [
        [0, hex('#070b1f')],
        [0.5, hex('#1b2a55')],
        [0.8, hex('#47608f')],
      ]
    : /sunset|sunrise|dawn|golden|warm/.test(p.words) || p.random() < 0.5
      ? warmSky(p)
      : [
          [0, hex('#3f6fa8')],
          [0.55, hex('#a9cbe6')],
          [0.8, hex('#eef3f2')],
        ];
  p.r.verticalGradient(sky);
  const horizonColour = sky.at(-1)![1];
  if (night) {
    stars(p, Math.round(p.w * p.h * 0.0009), p.h * 0.6);
    const mx = p.w * p.between(0.6, 0.85);
    const my = p.h * p.between(0.14, 0.26);
    p.r.glow(mx, my, p.s * 0.15, hex('#9fb6e8'), 0.35);
    p.r.disc(mx, my, p.s * 0.05, hex('#f4f1e4'));
  } else {
    sun(p, p.w * p.between(0.2, 0.8), p.h * p.between(0.3, 0.48), p.s * 0.04, hex('#fff4d6'), hex('#ffc98a'));
  }
  const far: Rgb = night ? hex('#31456f') : mix(horizonColour, hex('#6a6f9a'), 0.45);
  const nearC: Rgb = night ? hex('#0b1226') : hex('#1f2540');
  const layers = 5;
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1);
    const base = p.h * (top + t * (bottom - top));
    const line = ridge(
      p,
      base,
      p.h * (0.3 - t * 0.17) * ((bottom - top) / 0.32 + 0.3) * 0.8,
      2.2 + i * 0.8,
      6,
    );
    const colour = mix(far, nearC, t);
    const snowLine = base - p.h * (0.14 - t * 0.05);
    // The slope over a wide span, so lighting follows faces, not every jag (no vertical streaks).
    // It depends on x alone and fillBelow paints column by column: worked out once per column.
    const span = p.w * 0.02;
    let slopeColumn = NaN;
    let columnSlope = 0;
    p.r.fillBelow(line, (x, y, depth) => {
      // Snow on the far, high ridges; faces towards the light brighter, fading below the crest.
      if (x !== slopeColumn) {
        slopeColumn = x;
        columnSlope = (line(x + span) - line(x - span)) / (2 * span);
      }
      const slope = columnSlope;
      const lit = Math.max(-1, Math.min(1, slope * 1.2)) * Math.exp(-depth / (p.h * 0.1));
      let c = mix(colour, horizonColour, 0.08 * (1 - t));
      if (snowy && i < 2 && y < snowLine && depth < p.h * 0.08)
        c = mix(c, night ? hex('#b9c9ea') : hex('#f3f5fb'), 0.75 * (1 - depth / (p.h * 0.08)));
      return mix(c, lit > 0 ? horizonColour : [0, 0, 0], Math.abs(lit) * 0.35);
    });
    if (i < layers - 1) p.r.haze(base + p.h * 0.02, p.h * 0.025, horizonColour, 0.45 - t * 0.2);
  }
}

const mountains: Painter = (p) => paintMountains(p, 0.5, 0.82);

const lake: Painter = (p) => {
  paintMountains(p, 0.42, 0.58);
  const horizon = p.h * 0.62;
  const n = noise1d(p.random);
  p.r.reflect(horizon, hex('#1b2a44'), 0.18, (y) => n(y * 0.15, 2) * p.s * 0.006);
  p.r.haze(horizon, p.s * 0.004, WHITE, 0.25);
};

const aurora: Painter = (p) => {
  p.r.verticalGradient([
    [0, hex('#02040d')],
    [0.45, hex('#07152b')],
    [0.62, hex('#123247')],
  ]);
  stars(p, Math.round(p.w * p.h * 0.0012), p.h * 0.62);
  const horizon = p.h * p.between(0.6, 0.68);
  const curtains = 2 + Math.floor(p.random() * 2);
  for (let c = 0; c < curtains; c++) {
    const path = noise1d(p.random);
    const rays = noise1d(p.random);
    const base = p.h * p.between(0.3, 0.48);
    const green: Rgb = mix(hex('#3dffa8'), hex('#7dffcf'), p.random());
    const violet: Rgb = mix(hex('#a45cff'), hex('#ff6fb5'), p.random() * 0.4);
    const strength = p.between(0.5, 0.85);
    const phase = p.random() * 50;
    for (let x = 0; x < p.w; x++) {
      const u = x / p.w;
      const bottom = base + path(u * 2.2 + phase, 3) * p.h * 0.22;
      const ray = 0.45 + 0.55 * Math.max(0, rays(u * 40 + phase, 2) + 0.35);
      const height = p.h * (0.16 + 0.14 * ray);
      for (
        let y = Math.max(0, Math.floor(bottom - height * 1.4));
        y < Math.min(horizon, bottom + p.h * 0.03);
        y++
      ) {
        const above = (bottom - y) / height;
        const k = above < 0 ? Math.exp(-((above * 8) ** 2)) : Math.exp(-above * 2.2);
        const colour = mix(green, violet, Math.min(1, Math.max(0, above * 0.9 - 0.1)));
        p.r.add(x, y, colour, k * ray * strength * 0.55);
      }
    }
  }
  // Hills, then a still, frozen lake mirroring the sky.
  const hills = ridge(p, horizon, p.h * 0.06, 3, 5);
  p.r.fillBelow(hills, hex('#03070d'));
  const lakeTop = horizon + p.h * 0.015;
  p.r.reflect(lakeTop, hex('#0d1f2e'), 0.3, () => 0);
  p.r.fillBelow(ridge(p, p.h * 0.93, p.h * 0.03, 4, 4), (_x, _y, depth) =>
    mix(hex('#c9d8e6'), hex('#6d8196'), Math.min(1, depth / (p.h * 0.08))),
  );
};

const nightSky: Painter = (p) => {
  p.r.verticalGradient([
    [0, hex('#03041a')],
    [0.55, hex('#15173f')],
    [0.8, hex('#3a2a5a')],
  ]);
  // The Milky Way: a tilted band whose glow swells and fades along its length, split by a dark dust
  // lane and thick with faint stars.
  const tilt = p.between(-0.6, 0.6);
  const band = noise1d(p.random);
  const glow = noise1d(p.random);
  const across = (x: number, y: number) => (x - p.w / 2) * Math.cos(tilt) - (y - p.h * 0.35) * Math.sin(tilt);
  const along = (x: number, y: number) => (x - p.w / 2) * Math.sin(tilt) + (y - p.h * 0.35) * Math.cos(tilt);
  for (let y = 0; y < p.h * 0.85; y++)
    for (let x = 0; x < p.w; x++) {
      const u = along(x, y) / p.s;
      const d = across(x, y) / (p.s * (0.16 + 0.06 * band(u, 3)));
      const k = Math.exp(-(d * d)) * (0.55 + 0.45 * glow(u * 2.5, 3));
      const dust = 1 - 0.6 * Math.exp(-(((d - 0.15 * band(u * 3, 2)) / 0.18) ** 2));
      if (k > 0.02) p.r.add(x, y, mix(hex('#7a6fc4'), hex('#f7dcc4'), k), k * 0.32 * dust);
    }
  for (let i = 0; i < p.w * p.h * 0.004; i++) {
    const x = p.random() * p.w;
    const y = p.random() * p.h * 0.85;
    const d = across(x, y) / (p.s * 0.18);
    if (p.random() < Math.exp(-(d * d)))
      p.r.add(Math.floor(x), Math.floor(y), [0.9, 0.9, 1], 0.15 + p.random() * 0.35);
  }
  stars(p, Math.round(p.w * p.h * 0.0025), p.h * 0.85);
  const ground = ridge(p, p.h * 0.8, p.h * 0.08, 2.5, 5);
  p.r.haze(p.h * 0.78, p.h * 0.04, hex('#5a3f72'), 0.35);
  p.r.fillBelow(ground, hex('#05060f'));
};

const desert: Painter = (p) => {
  const sky = warmSky(p);
  p.r.verticalGradient(sky.map(([t, c]) => [t * 0.7, c] as const));
  const horizon = p.h * 0.55;
  sun(
    p,
    p.w * p.between(0.2, 0.8),
    horizon - p.h * p.between(0.05, 0.2),
    p.s * 0.06,
    hex('#fff0c9'),
    hex('#ffb35c'),
  );
  const layers = 4;
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1);
    const line = ridge(p, horizon + t * p.h * 0.3, p.h * (0.08 + t * 0.05), 1.4 + i * 0.5, 2);
    const lightC = mix(hex('#f4b26b'), hex('#e88d4a'), t);
    const shadowC = mix(hex('#a4566a'), hex('#6b2d43'), t);
    p.r.fillBelow(line, (x, _y, depth) => {
      // The lit face and the shadowed face of each crest, fading into the dune's body below it.
      const slope = (line(x + 4) - line(x - 4)) / 8;
      const shadow = Math.max(0, Math.min(1, 0.5 + slope * 4));
      const crest = Math.exp(-depth / (p.h * 0.09));
      return mix(mix(lightC, shadowC, 0.45), mix(lightC, shadowC, shadow), crest);
    });
    p.r.haze(horizon + t * p.h * 0.3 - p.h * 0.02, p.h * 0.02, sky.at(-1)![1], 0.25 * (1 - t));
  }
};

const forest: Painter = (p) => {
  // Overcast grey-green, a golden morning or a blue dusk: the images of one request differ in light too.
  const light = Math.floor(p.random() * 3);
  const sky: [number, Rgb][] = [
    [
      [0, hex('#8ea3a6')],
      [0.5, hex('#c7d2cc')],
      [0.8, hex('#e3e6dc')],
    ],
    [
      [0, hex('#9db4c0')],
      [0.45, hex('#f2d8a7')],
      [0.8, hex('#fbe9c6')],
    ],
    [
      [0, hex('#3b4d6b')],
      [0.5, hex('#7d8fa8')],
      [0.8, hex('#b7c0c9')],
    ],
  ][light] as [number, Rgb][];
  p.r.verticalGradient(sky);
  if (light === 1) sun(p, p.w * p.between(0.2, 0.8), p.h * 0.3, p.s * 0.05, hex('#fff6dc'), hex('#ffd79a'));
  const fog = sky.at(-1)![1];
  const layers = 5;
  for (let i = 0; i < layers; i++) {
    const t = i / (layers - 1);
    const ground = ridge(p, p.h * (0.42 + t * 0.4), p.h * 0.08, 1.5 + i * 0.4, 4);
    const spacing = p.w * (0.012 + t * 0.018);
    const trees: { x: number; height: number; width: number }[] = [];
    for (let x = -spacing; x < p.w + spacing; x += spacing * p.between(0.5, 1.2))
      trees.push({
        x,
        height: p.h * (0.07 + t * 0.1) * p.between(0.6, 1.3),
        width: spacing * p.between(0.7, 1.1),
      });
    const top = (x: number) => {
      let y = ground(x);
      for (const tree of trees) {
        const d = Math.abs(x - tree.x) / tree.width;
        if (d < 1) {
          // Tiers of branches: a saw-tooth on the cone's flank.
          const tier = 1 - ((d * 4) % 1) * 0.18;
          y = Math.min(y, ground(tree.x) - tree.height * (1 - d) * tier);
        }
      }
      return y;
    };
    const colour = mix(mix(fog, hex('#4c6a5e'), 0.55), hex('#14251f'), t);
    p.r.fillBelow(top, colour);
    if (i < layers - 1) p.r.haze(p.h * (0.5 + t * 0.4), p.h * 0.05, fog, 0.55 - t * 0.25);
  }
};

const city: Painter = (p) => {
  const night = /night|neon|lights|bokeh/.test(p.words) || p.random() < 0.4;
  const sky: [number, Rgb][] = night
    ? [
        [0, hex('#0a0d24')],
        [0.5, hex('#2b1d4d')],
        [0.75, hex('#a3456b')],
      ]
    : warmSky(p);
  p.r.verticalGradient(sky);
  const horizonColour = sky.at(-1)![1];
  if (!night) sun(p, p.w * p.between(0.25, 0.75), p.h * 0.55, p.s * 0.05, hex('#fff0cc'), hex('#ffae6e'));
  const ground = p.h * 0.82;
  for (let layer = 0; layer < 3; layer++) {
    const t = layer / 2;
    const colour = mix(mix(horizonColour, hex('#3c2f5c'), 0.6), hex('#0c0d1c'), t);
    let x = -p.between(0, 30);
    while (x < p.w) {
      const width = p.w * p.between(0.03, 0.075) * (1 + t * 0.6);
      const height = p.h * p.between(0.12, 0.45) * (1 - t * 0.35) + (p.random() < 0.12 ? p.h * 0.15 : 0);
      const top = ground - height + t * p.h * 0.05;
      p.r.rect(x, top, x + width, p.h, colour);
      if (p.random() < 0.2) p.r.rect(x + width * 0.45, top - p.h * 0.05, x + width * 0.5, top, colour);
      // Lit windows on the nearer rows, warmer and more of them at night.
      if (layer > 0) {
        const cell = Math.max(3, p.s * 0.012);
        for (let wy = top + cell; wy < ground; wy += cell * 1.8)
          for (let wx = x + cell * 0.6; wx < x + width - cell; wx += cell * 1.6)
            if (p.random() < (night ? 0.42 : 0.18))
              p.r.rect(
                wx,
                wy,
                wx + cell * 0.8,
                wy + cell,
                mix(hex('#ffd88a'), hex('#fff6e0'), p.random()),
                0.55 + t * 0.4,
              );
      }
      x += width + p.between(0, p.w * 0.01);
    }
    if (layer < 2) p.r.haze(ground - p.h * 0.05, p.h * 0.08, horizonColour, 0.25);
  }
  p.r.rect(0, ground, p.w, p.h, hex('#08080f'));
  const n = noise1d(p.random);
  p.r.reflect(ground, hex('#0a0a18'), 0.45, (y) => n(y * 0.3, 2) * p.s * 0.01);
  if (night)
    for (let i = 0; i < 18; i++)
      p.r.glow(
        p.random() * p.w,
        p.h * p.between(0.55, 1),
        p.s * p.between(0.02, 0.06),
        mix(hex('#ffb45e'), hex('#ff5e9a'), p.random()),
        0.25,
      );
};

const portrait: Painter = (p) => {
  // A backlit studio portrait: warm bokeh behind, the person in near-silhouette with a rim of light.
  const backdrop = p.random() < 0.5 ? [hex('#3b6470'), hex('#0c171b')] : [hex('#7a4a34'), hex('#160e0c')];
  const cx = p.w * p.between(0.4, 0.6);
  const light = p.random() < 0.5 ? -1 : 1;
  const lx = cx + light * p.s * 0.35;
  for (let y = 0; y < p.h; y++)
    for (let x = 0; x < p.w; x++) {
      const d = Math.hypot((x - lx) / p.s, (y - p.h * 0.3) / p.s);
      p.r.blend(x, y, mix(backdrop[0]!, backdrop[1]!, Math.min(1, d * 1.1)), 1);
    }
  for (let i = 0; i < 22; i++)
    p.r.glow(
      p.random() * p.w,
      p.random() * p.h * 0.8,
      p.s * p.between(0.015, 0.05),
      mix(hex('#ffd59a'), hex('#ffe9c9'), p.random()),
      p.between(0.12, 0.3),
    );
  const rim = hex('#ffdcae');
  const body = hex('#141012');
  const head = { x: cx, y: p.h * 0.43, rx: p.s * 0.15, ry: p.s * 0.19 };
  // Distance-to-edge tests for the figure: head (an ellipse), neck, shoulders (a wide rounded mound).
  const inside = (x: number, y: number) => {
    const dx = (x - head.x) / head.rx;
    const dy = (y - head.y) / head.ry;
    const inHead = 1 - Math.sqrt(dx * dx + dy * dy);
    const inNeck = Math.min(p.s * 0.07 - Math.abs(x - cx), y - head.y) / p.s;
    const sd = (x - cx) / (p.s * 0.55);
    const inShoulders = (y - (head.y + head.ry * 1.05 + p.s * 0.28 * sd * sd * (1 + Math.abs(sd)))) / p.s;
    return Math.max(inHead * 0.19, inNeck, inShoulders);
  };
  for (let y = Math.floor(head.y - head.ry - 2); y < p.h; y++)
    for (let x = 0; x < p.w; x++) {
      const v = inside(x + 0.5, y + 0.5);
      if (v < -0.004) continue;
      const edge = Math.min(1, v * p.s + 0.5);
      // The rim: the edge facing the light, a few pixels wide.
      const towards = Math.max(0, ((x - cx) / p.s) * light * 3);
      const rimK = Math.exp(-(v * p.s) / (p.s * 0.012)) * Math.min(1, towards);
      p.r.blend(x, y, mix(body, rim, rimK * 0.9), Math.max(0, edge));
    }
  p.r.glow(lx, p.h * 0.25, p.s * 0.25, hex('#ffcf9a'), 0.12);
};

const product: Painter = (p) => {
  const [top, bottom] =
    p.random() < 0.5 ? [hex('#e9e3da'), hex('#c9bfb2')] : [hex('#d8e4e6'), hex('#a9bfc4')];
  p.r.verticalGradient([
    [0, top],
    [0.62, bottom],
    [0.66, mix(bottom, top, 0.3)],
    [1, mix(bottom, WHITE, 0.2)],
  ]);
  const cx = p.w * p.between(0.42, 0.58);
  const floor = p.h * 0.74;
  const mug = /mug|coffee|cup|tea/.test(p.words);
  const width = p.s * (mug ? 0.2 : 0.13);
  const height = p.s * (mug ? 0.24 : 0.42);
  const body: Rgb = [hex('#2f4858'), hex('#b5523b'), hex('#33363b'), hex('#7c8b5f')][
    Math.floor(p.random() * 4)
  ]!;
  p.r.disc(cx + width * 0.3, floor + p.s * 0.012, width * 1.5, hex('#000000'), 0.22, p.s * 0.03);
  const shade = (x: number) => {
    const u = (x - cx) / width; // -1..1 across the body
    const lambert = Math.sqrt(Math.max(0, 1 - u * u));
    return mix(mix(body, [0, 0, 0], 0.55), body, lambert * 0.9 + 0.1 * (u < 0 ? 1 : 0));
  };
  const highlight = (x: number, c: Rgb) => {
    const u = (x - cx) / width;
    return mix(c, WHITE, Math.exp(-(((u + 0.45) / 0.09) ** 2)) * 0.55);
  };
  if (mug) {
    // The handle: a thick ring on the right.
    for (let y = Math.floor(floor - height * 0.85); y < floor - height * 0.15; y++)
      for (let x = Math.floor(cx + width * 0.7); x < cx + width * 1.5; x++) {
        const d = Math.hypot((x - cx - width) / (width * 0.42), (y - (floor - height / 2)) / (height * 0.3));
        if (d > 0.62 && d < 1)
          p.r.blend(x, y, mix(body, [0, 0, 0], 0.35), Math.min(1, (1 - d) * 20, (d - 0.62) * 20));
      }
  } else {
    // Shoulders, neck and cap of a bottle.
    p.r.rect(
      cx - width * 0.28,
      floor - height - p.s * 0.06,
      cx + width * 0.28,
      floor - height + 2,
      mix(body, [0, 0, 0], 0.2),
    );
    p.r.rect(
      cx - width * 0.36,
      floor - height - p.s * 0.11,
      cx + width * 0.36,
      floor - height - p.s * 0.055,
      hex('#c8a96a'),
    );
  }
  for (let y = Math.floor(floor - height); y < floor; y++)
    for (let x = Math.floor(cx - width); x < cx + width + 1; x++) {
      const cover = Math.min(1, Math.max(0, Math.min(x + 1 - (cx - width), cx + width - x)));
      if (cover > 0) p.r.blend(x, y, highlight(x, shade(x)), cover);
    }
  // A label band, and the body's soft reflection on the floor.
  if (!mug)
    p.r.rect(
      cx - width,
      floor - height * 0.62,
      cx + width,
      floor - height * 0.34,
      mix(WHITE, body, 0.12),
      0.85,
    );
  for (let y = Math.ceil(floor); y < Math.min(p.h, floor + height * 0.3); y++)
    for (let x = Math.floor(cx - width); x < cx + width; x++)
      p.r.blend(x, y, shade(x), 0.22 * (1 - (y - floor) / (height * 0.3)));
  p.r.glow(cx - width * 2, p.h * 0.2, p.s * 0.35, WHITE, 0.15);
};

const abstract: Painter = (p) => {
  const palette: [number, Rgb][] = [
    [0, hex('#0d3b3e')],
    [0.35, hex('#167c7a')],
    [0.55, hex('#e6c27a')],
    [0.7, hex('#1a4f58')],
    [1, hex('#0a2629')],
  ];
  const n = noise1d(p.random);
  const m = noise1d(p.random);
  for (let y = 0; y < p.h; y++) {
    const v = y / p.s;
    const warp = n(v * 1.3, 4);
    for (let x = 0; x < p.w; x++) {
      const u = x / p.s;
      const t = 0.5 + 0.5 * Math.sin((u + warp * 1.6) * 4 + m(v * 2 + u * 0.5, 3) * 5);
      p.r.blend(x, y, gradientAt(palette, t), 1);
    }
  }
};

/** Subjects by the words that ask for them, the first match winning; `painter` paints one. */
export const SUBJECTS: { name: string; words: RegExp; painter: Painter }[] = [
  { name: 'aurora', words: /aurora|northern lights|borealis/, painter: aurora },
  {
    name: 'portrait',
    words: /portrait|person|people|woman|man\b|men\b|girl|boy|face|headshot|team|model/,
    painter: portrait,
  },
  {
    name: 'product',
    words: /product|bottle|perfume|mug|cup|coffee|packshot|packaging|cosmetic|skincare|studio shot/,
    painter: product,
  },
  {
    name: 'city',
    words: /city|skyline|urban|street|downtown|building|neon|tokyo|new york|bokeh/,
    painter: city,
  },
  {
    name: 'ocean',
    words: /ocean|\bsea\b(?! of clouds)|seascape|beach|wave|bay|coast|shore|surf|island/,
    painter: ocean,
  },
  { name: 'desert', words: /desert|dune|sand|sahara|canyon/, painter: desert },
  { name: 'forest', words: /forest|\bpines?\b|\btrees?\b|woods|jungle|evergreen/, painter: forest },
  { name: 'lake', words: /lake|reflection|fjord|pond|river/, painter: lake },
  { name: 'night', words: /night sky|milky way|galaxy|starry night|cosmos|outer space/, painter: nightSky },
  {
    name: 'mountains',
    words: /mountain|alps|peak|summit|ridge|valley|snow|winter|glacier|hill|moon/,
    painter: mountains,
  },
  { name: 'night-scene', words: /night|stars|starry/, painter: nightSky },
  { name: 'sunset', words: /sunset|sunrise|dawn|dusk|golden hour|horizon/, painter: ocean },
  {
    name: 'abstract',
    words: /abstract|marble|liquid|ink|texture|pattern|background|swirl|gradient/,
    painter: abstract,
  },
];

/** Subjects a prompt that names none of the words gets, picked by the seed. */
const FALLBACKS = ['mountains', 'ocean', 'lake', 'forest', 'desert', 'city'];

export function subjectFor(prompt: string, seed: number): string {
  const words = prompt.toLowerCase();
  return SUBJECTS.find((s) => s.words.test(words))?.name ?? FALLBACKS[seed % FALLBACKS.length]!;
}

/** Paints `subject` for `prompt` at width x height; the same inputs always give the same pixels. */
export function paintScene(
  subject: string,
  prompt: string,
  seed: number,
  width: number,
  height: number,
): Raster {
  const r = new Raster(width, height);
  const random = seededRandom(seed);
  const painter = SUBJECTS.find((s) => s.name === subject)?.painter ?? mountains;
  painter({
    r,
    w: width,
    h: height,
    s: Math.min(width, height),
    random,
    between: (lo, hi) => lo + (hi - lo) * random(),
    words: prompt.toLowerCase(),
  });
  return r;
}
