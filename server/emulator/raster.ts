// The painting primitives of the emulator's generated images (painted-image.ts): a float RGB
// canvas with gradients, anti-aliased silhouettes under a curve, soft glows, discs and rectangles,
// and a water reflection. Colours are [r, g, b] in 0..1. Small on purpose: scenes are made of
// layered shapes, which is what makes them read as landscapes at a glance.

export type Rgb = readonly [number, number, number];

/** mulberry32: a small seeded generator, so one seed always paints the same picture. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Smooth 1D value noise with octaves (fbm), in about -1..1: ridgelines, dunes, wave edges. */
export function noise1d(random: () => number): (x: number, octaves?: number) => number {
  const table = Float32Array.from({ length: 256 }, () => random() * 2 - 1);
  const at = (x: number) => {
    const i = Math.floor(x);
    const f = x - i;
    const s = f * f * (3 - 2 * f);
    return table[i & 255]! * (1 - s) + table[(i + 1) & 255]! * s;
  };
  return (x, octaves = 4) => {
    let sum = 0;
    let amp = 0.55;
    let freq = 1;
    for (let o = 0; o < octaves; o++) {
      sum += amp * at(x * freq + o * 37.1);
      amp *= 0.5;
      freq *= 2.03;
    }
    return sum;
  };
}

export const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** '#rrggbb' to a colour. */
export const hex = (value: string): Rgb => [
  parseInt(value.slice(1, 3), 16) / 255,
  parseInt(value.slice(3, 5), 16) / 255,
  parseInt(value.slice(5, 7), 16) / 255,
];

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** The colour at t (0..1) along gradient stops [position, colour], positions ascending. */
export function gradientAt(stops: readonly (readonly [number, Rgb])[], t: number): Rgb {
  if (t <= stops[0]![0]) return stops[0]![1];
  for (let i = 1; i < stops.length; i++) {
    const [p, c] = stops[i]!;
    if (t <= p) {
      const [p0, c0] = stops[i - 1]!;
      return mix(c0, c, (t - p0) / (p - p0 || 1));
    }
  }
  return stops.at(-1)![1];
}

export class Raster {
  readonly data: Float32Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Float32Array(width * height * 3);
  }

  /** Blends colour `c` over pixel (x, y) with opacity `a`. */
  blend(x: number, y: number, c: Rgb, a: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || a <= 0) return;
    const i = (y * this.width + x) * 3;
    const d = this.data;
    const k = a > 1 ? 1 : a;
    d[i] = d[i]! + (c[0] - d[i]!) * k;
    d[i + 1] = d[i + 1]! + (c[1] - d[i + 1]!) * k;
    d[i + 2] = d[i + 2]! + (c[2] - d[i + 2]!) * k;
  }

  /** Adds light (screen-like, clipped later): glows, stars, sparkles. */
  add(x: number, y: number, c: Rgb, k: number): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || k <= 0) return;
    const i = (y * this.width + x) * 3;
    const d = this.data;
    d[i] = d[i]! + c[0] * k * (1 - d[i]! * 0.5);
    d[i + 1] = d[i + 1]! + c[1] * k * (1 - d[i + 1]! * 0.5);
    d[i + 2] = d[i + 2]! + c[2] * k * (1 - d[i + 2]! * 0.5);
  }

  /** A vertical gradient over the whole canvas (t = 0 at the top). */
  verticalGradient(stops: readonly (readonly [number, Rgb])[]): void {
    for (let y = 0; y < this.height; y++) {
      const c = gradientAt(stops, y / (this.height - 1));
      for (let x = 0; x < this.width; x++) this.blend(x, y, c, 1);
    }
  }

  /**
   * Fills everything below `top(x)` (pixels), anti-aliased along the edge, with `paint(x, y, depth)`
   * where depth is the distance below the edge in pixels; `alpha` makes a hazy layer.
   */
  fillBelow(
    top: (x: number) => number,
    paint: Rgb | ((x: number, y: number, depth: number) => Rgb),
    alpha = 1,
  ): void {
    const colour = typeof paint === 'function' ? paint : () => paint;
    for (let x = 0; x < this.width; x++) {
      const edge = top(x + 0.5);
      const slope = top(x + 1) - top(x);
      const scale = 1 / Math.sqrt(1 + slope * slope);
      const from = Math.max(0, Math.floor(edge - Math.abs(slope) - 1));
      for (let y = from; y < this.height; y++) {
        const depth = y + 0.5 - edge;
        const cover = clamp01(depth * scale + 0.5);
        if (cover > 0) this.blend(x, y, colour(x, y, depth), cover * alpha);
      }
    }
  }

  /** A soft round light: Gaussian falloff of radius r, strength k. */
  glow(cx: number, cy: number, r: number, c: Rgb, k: number): void {
    const reach = r * 2.6;
    const r2 = r * r;
    for (let y = Math.max(0, Math.floor(cy - reach)); y < Math.min(this.height, cy + reach); y++) {
      const dy = y - cy;
      for (let x = Math.max(0, Math.floor(cx - reach)); x < Math.min(this.width, cx + reach); x++) {
        const dx = x - cx;
        const d2 = (dx * dx + dy * dy) / r2;
        if (d2 < 6.8) this.add(x, y, c, k * Math.exp(-d2));
      }
    }
  }

  /** An anti-aliased disc, optionally an ellipse (ry), opacity a. */
  disc(cx: number, cy: number, r: number, c: Rgb, a = 1, ry = r): void {
    for (let y = Math.max(0, Math.floor(cy - ry - 1)); y < Math.min(this.height, cy + ry + 1); y++) {
      for (let x = Math.max(0, Math.floor(cx - r - 1)); x < Math.min(this.width, cx + r + 1); x++) {
        const dx = (x + 0.5 - cx) / r;
        const dy = (y + 0.5 - cy) / ry;
        const d = (Math.sqrt(dx * dx + dy * dy) - 1) * Math.min(r, ry);
        this.blend(x, y, c, clamp01(0.5 - d) * a);
      }
    }
  }

  /** A filled rectangle with anti-aliased left and right edges. */
  rect(x0: number, y0: number, x1: number, y1: number, c: Rgb, a = 1): void {
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.height, Math.ceil(y1)); y++) {
      const vy = Math.min(1, y + 1 - y0, y1 - y);
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(this.width, Math.ceil(x1)); x++) {
        const vx = Math.min(1, x + 1 - x0, x1 - x);
        this.blend(x, y, c, clamp01(vx) * clamp01(vy) * a);
      }
    }
  }

  /** A horizontal band of haze centred at y, of half-height h. */
  haze(cy: number, h: number, c: Rgb, a: number): void {
    for (let y = Math.max(0, Math.floor(cy - h * 2.5)); y < Math.min(this.height, cy + h * 2.5); y++) {
      const k = a * Math.exp(-(((y - cy) / h) ** 2));
      for (let x = 0; x < this.width; x++) this.blend(x, y, c, k);
    }
  }

  /**
   * Water below `horizon`: each row mirrors the row as far above it, rippled sideways by
   * `ripple(y)` pixels, darkened and tinted like deep water.
   */
  reflect(horizon: number, tint: Rgb, tintAmount: number, ripple: (y: number) => number): void {
    const w = this.width;
    const d = this.data;
    for (let y = Math.ceil(horizon); y < this.height; y++) {
      const source = Math.floor(2 * horizon - y);
      if (source < 0) continue;
      const shift = Math.round(ripple(y));
      const fade = tintAmount + (1 - tintAmount) * ((y - horizon) / (this.height - horizon)) * 0.35;
      for (let x = 0; x < w; x++) {
        const sx = Math.min(w - 1, Math.max(0, x + shift));
        const i = (y * w + x) * 3;
        const j = (source * w + sx) * 3;
        for (let ch = 0; ch < 3; ch++) d[i + ch] = d[j + ch]! * (1 - fade) * 0.92 + tint[ch]! * fade;
      }
    }
  }

  /** 8-bit RGB bytes with a light vignette; values past 1 are clipped. */
  toBytes(vignette = 0.22): Uint8Array {
    const { width, height, data: d } = this;
    const out = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      const ny = (y / height - 0.5) * 2;
      const ny2 = ny * ny;
      for (let x = 0; x < width; x++) {
        const nx = (x / width - 0.5) * 2;
        // m ** 1.5 written as m * sqrt(m): the same bytes, without a power per pixel (the slowest
        // step of painting an image).
        const m = Math.min(1, (nx * nx + ny2) * 0.5);
        const v = 1 - vignette * m * Math.sqrt(m);
        const i = (y * width + x) * 3;
        for (let ch = 0; ch < 3; ch++) out[i + ch] = Math.round(clamp01(d[i + ch]! * v) * 255);
      }
    }
    return out;
  }
}
