#!/usr/bin/python3
# Renders the demo's media (server/emulator/assets/demo/): procedural scenes that look like
# generated images, in the shapes the seeded history asks for, and short clips with posters.
# Run once with Debian's python3-numpy, python3-pil, webp and ffmpeg; the output is committed.
#   python3 scripts/demo-assets.py server/emulator/assets/demo
import os, subprocess, sys
import numpy as np
from PIL import Image, ImageFilter

OUT = sys.argv[1] if len(sys.argv) > 1 else 'server/emulator/assets/demo'
os.makedirs(OUT, exist_ok=True)

def noise2(h, w, rng, octaves=6, base=3, persistence=0.5):
    total = np.zeros((h, w), np.float32); amp = 1.0; norm = 0.0; cells = base
    for _ in range(octaves):
        grid = rng.random((cells + 1, int(cells * w / h) + 2)).astype(np.float32)
        img = Image.fromarray((grid * 255).astype(np.uint8)).resize((w, h), Image.BICUBIC)
        total += amp * (np.asarray(img, np.float32) / 255.0); norm += amp; amp *= persistence; cells *= 2
    return total / norm

def noise1(n, rng, octaves=7, base=3, persistence=0.5):
    total = np.zeros(n, np.float32); amp = 1.0; norm = 0.0; cells = base
    for _ in range(octaves):
        pts = rng.random(cells + 3)
        x = np.linspace(0, cells, n)
        i = np.floor(x).astype(int); f = x - i; f = f * f * (3 - 2 * f)
        total += amp * (pts[i] * (1 - f) + pts[i + 1] * f); norm += amp; amp *= persistence; cells *= 2
    return total / norm

def lerp(a, b, t): return a + (b - a) * t[..., None]
def col(hexs): return np.array([int(hexs[i:i + 2], 16) for i in (1, 3, 5)], np.float32) / 255

def gradient(h, w, stops, axis_t):
    """stops: [(pos, '#rrggbb')], axis_t: (h,w) in 0..1"""
    out = np.zeros((h, w, 3), np.float32)
    for (p0, c0), (p1, c1) in zip(stops, stops[1:]):
        m = (axis_t >= p0) & (axis_t <= p1)
        t = np.clip((axis_t - p0) / max(p1 - p0, 1e-6), 0, 1)
        out[m] = lerp(col(c0), col(c1), t)[m]
    return out

def grid(h, w):
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None] * np.ones((1, w), np.float32)
    x = np.ones((h, 1), np.float32) * np.linspace(0, 1, w, dtype=np.float32)[None, :]
    return y, x

def glow(img, cy, cx, r, color, strength, aspect):
    h, w, _ = img.shape; y, x = grid(h, w)
    d = np.sqrt(((y - cy)) ** 2 + ((x - cx) * aspect) ** 2)
    g = np.exp(-(d / r) ** 2) * strength
    return img + g[..., None] * col(color)

def disc(img, cy, cx, r, color, aspect, soft=0.004):
    h, w, _ = img.shape; y, x = grid(h, w)
    d = np.sqrt((y - cy) ** 2 + ((x - cx) * aspect) ** 2)
    a = np.clip((r - d) / soft, 0, 1)
    return lerp(img, col(color) * np.ones_like(img), a)

def ridges(img, rng, layers, aspect, jag=0.0):
    h, w, _ = img.shape; y, x = grid(h, w)
    rock = noise2(h, w, rng, octaves=6, base=6, persistence=0.6)
    for base, amp, color, haze, octs in layers:
        line = base - amp * noise1(w, rng, octaves=octs, base=max(2, int(3 * aspect)), persistence=0.55)
        if jag: line = line - jag * noise1(w, rng, octaves=2, base=int(w / 6))
        mask = np.clip((y - line[None, :]) * h / 1.5, 0, 1)
        depth = y - line[None, :]
        shade = col(color) * ((1 - 0.3 * np.clip(depth * 3, 0, 1)) * (0.8 + 0.4 * rock))[..., None]
        shade = lerp(shade, col(haze) * np.ones_like(shade), np.clip(0.3 - depth * 5, 0, 0.3))
        img = lerp(img, shade, mask)
    return img

def scene(name, h, w, seed):
    rng = np.random.default_rng(seed); y, x = grid(h, w); a = w / h
    if name == 'alpine-sunrise':
        img = gradient(h, w, [(0, '#2b3a67'), (0.35, '#c46e6a'), (0.55, '#f5b26b'), (1, '#ffe0a8')], y)
        img = glow(img, 0.5, 0.62, 0.22, '#fff1c4', 0.8, a)
        img = disc(img, 0.5, 0.62, 0.035, '#fff6dc', a)
        img = ridges(img, rng, [(0.52, 0.18, '#7c6a8e', '#e9a98a', 7), (0.62, 0.14, '#544a6e', '#d59a86', 7),
                                (0.74, 0.12, '#33304b', '#a9788a', 7), (0.88, 0.08, '#1d1b2c', '#5a4a5e', 6)], a)
    elif name == 'misty-forest':
        img = gradient(h, w, [(0, '#9fb4b8'), (0.5, '#d7dfdc'), (1, '#e8ece8')], y)
        img = ridges(img, rng, [(0.42, 0.12, '#6f8c86', '#cfd9d6', 6), (0.55, 0.1, '#4d6d66', '#b9c8c3', 6),
                                (0.68, 0.1, '#31504a', '#93a9a3', 6), (0.84, 0.08, '#17302b', '#4d6862', 6)], a, jag=0.035)
    elif name == 'dunes':
        img = gradient(h, w, [(0, '#5f86b8'), (0.3, '#9dbbd6'), (0.45, '#f3d2a2'), (1, '#f3d2a2')], y)
        img = glow(img, 0.42, 0.2, 0.25, '#ffe7b8', 0.5, a)
        n = noise2(h, w, rng, octaves=4, base=2)
        for i, (base, amp, c1, c2) in enumerate([(0.45, 0.08, '#e7a96a', '#8a4b2b'), (0.58, 0.1, '#dc9456', '#6e3820'),
                                                 (0.74, 0.12, '#d08246', '#5a2c18')]):
            line = base - amp * noise1(w, rng, octaves=3, base=2)
            mask = np.clip((y - line[None, :]) * h / 1.2, 0, 1)
            side = np.clip(np.gradient(line)[None, :] * w * 4 + 0.5, 0, 1) * np.ones((h, 1))
            shade = lerp(col(c1) * np.ones((h, w, 3)), col(c2) * np.ones((h, w, 3)), np.clip(side + 0.15 * n, 0, 1))
            img = lerp(img, shade, mask)
    elif name == 'ocean-sunset':
        hz = 0.56
        sky = gradient(h, w, [(0, '#23305e'), (0.3, '#8a4f7d'), (0.48, '#f08a5d'), (hz, '#ffcf87'), (1, '#ffcf87')], y)
        sky = glow(sky, hz - 0.05, 0.5, 0.18, '#fff0c0', 0.9, a)
        sky = disc(sky, hz - 0.06, 0.5, 0.05, '#fff4d6', a)
        clouds = noise2(h, w, rng, octaves=5, base=3)
        cm = np.clip((clouds - 0.55) * 4, 0, 1) * np.clip(1 - np.abs(y - 0.28) / 0.18, 0, 1)
        sky = lerp(sky, col('#f2a07b') * np.ones_like(sky), cm * 0.7)
        sea = gradient(h, w, [(0, '#2a2f55'), (hz, '#6d4a6e'), (1, '#141a33')], y)
        waves = noise2(h, w * 1, rng, octaves=5, base=40)
        refl = np.exp(-((x - 0.5) * a / (0.05 + (y - hz) * 0.5)) ** 2) * np.clip((waves - 0.45) * 3, 0, 1)
        sea = sea + refl[..., None] * col('#ffd9a0') * 0.9
        img = np.where((y < hz)[..., None], sky, sea)
    elif name == 'aurora':
        img = gradient(h, w, [(0, '#020617'), (0.6, '#0b2540'), (1, '#0b2540')], y)
        stars = (rng.random((h, w)) > 0.9985).astype(np.float32) * rng.random((h, w))
        img += stars[..., None] * 0.9
        for k in range(3):
            line = 0.18 + 0.08 * k + 0.12 * noise1(w, rng, octaves=4, base=2)
            band = np.exp(-((y - line[None, :]) / 0.06) ** 2) * (0.5 + 0.5 * noise2(h, w, rng, 3, 12)) * (y < 0.62)
            curtain = np.clip((y - line[None, :] + 0.25) / 0.25, 0, 1) * np.clip((line[None, :] + 0.02 - y) / 0.02 + 1, 0, 1)
            img += band[..., None] * col(['#34d399', '#22d3ee', '#a78bfa'][k]) * 0.8
            img += (curtain * 0.12 * noise2(h, w, rng, 2, 30))[..., None] * col('#34d399')
        img = ridges(img, rng, [(0.6, 0.1, '#0a1424', '#0f2a3a', 6)], a, jag=0.02)
        hz = 0.66
        refl = np.flipud(img[: int(hz * h)])
        lake = img.copy(); rh = h - int(hz * h)
        lake[int(hz * h):] = refl[: rh] * 0.55 if refl.shape[0] >= rh else np.pad(refl, ((0, rh - refl.shape[0]), (0, 0), (0, 0)))[:rh] * 0.55
        img = np.where((y > hz)[..., None], lake, img)
    elif name == 'liquid-marble':
        n1 = noise2(h, w, rng, 5, 2); n2 = noise2(h, w, rng, 5, 2)
        wy = y + 0.35 * n1; wx = x * a + 0.35 * n2
        v = np.sin((wx * 3 + wy * 5 + 4 * noise2(h, w, rng, 5, 3)) * 3.1) * 0.5 + 0.5
        img = gradient(h, w, [(0, '#062a30'), (0.45, '#0f766e'), (0.7, '#5eead4'), (0.86, '#fde68a'), (1, '#b45309')], np.clip(v, 0, 1))
        img *= (0.75 + 0.35 * noise2(h, w, rng, 3, 2))[..., None]
    elif name == 'city-bokeh':
        img = gradient(h, w, [(0, '#0b0820'), (1, '#1b1030')], y)
        layer = np.zeros((h, w, 3), np.float32)
        pal = ['#f59e0b', '#fb7185', '#f472b6', '#60a5fa', '#fde68a', '#fdba74']
        for _ in range(int(70 * a)):
            cy, cx = rng.random() * 0.9 + 0.05, rng.random(); r = 0.02 + rng.random() * 0.07
            d = np.sqrt((y - cy) ** 2 + ((x - cx) * a) ** 2)
            m = np.clip((r - d) / 0.004, 0, 1) * (0.25 + 0.35 * rng.random()) * (0.8 + 0.2 * np.clip(d / r, 0, 1))
            layer = np.maximum(layer, m[..., None] * col(pal[rng.integers(len(pal))]))
        img = img + layer
    elif name == 'moonlit-peaks':
        img = gradient(h, w, [(0, '#0b1026'), (0.55, '#25345f'), (1, '#4c6390')], y)
        stars = (rng.random((h, w)) > 0.9988).astype(np.float32)
        img += stars[..., None] * 0.7 * (y < 0.5)[..., None]
        img = glow(img, 0.2, 0.72, 0.16, '#c7d2fe', 0.45, a)
        img = disc(img, 0.2, 0.72, 0.04, '#f1f5ff', a)
        img = ridges(img, rng, [(0.5, 0.24, '#dfe7f5', '#7b8db5', 8), (0.66, 0.16, '#8fa0c4', '#5a6c98', 7),
                                (0.8, 0.12, '#3b4a72', '#2e3c63', 7), (0.92, 0.08, '#151d36', '#1f2a4b', 6)], a)
    # film grain and vignette, so it reads as a render rather than a diagram
    img += (rng.standard_normal((h, w, 1)).astype(np.float32)) * 0.012
    vig = 1 - 0.28 * (((y - 0.5) * 1.6) ** 2 + ((x - 0.5) * 1.6) ** 2)
    img *= vig[..., None]
    out = Image.fromarray((np.clip(img, 0, 1) * 255).astype(np.uint8))
    return out.filter(ImageFilter.GaussianBlur(0.6))

SCENES = ['alpine-sunrise', 'misty-forest', 'dunes', 'ocean-sunset', 'aurora', 'liquid-marble', 'city-bokeh', 'moonlit-peaks']
SHAPES = {'16x9': (720, 1280), '9x16': (1280, 720), '1x1': (1024, 1024)}
only = os.environ.get('ONLY')
for i, name in enumerate(SCENES):
    if only and name != only: continue
    for shape, (h, w) in SHAPES.items():
        img = scene(name, h, w, 1000 + i)
        img.save(f'{OUT}/{name}-{shape}.webp', 'WEBP', quality=72, method=6)
        t = img.copy(); t.thumbnail((400, 400)); t.save(f'{OUT}/{name}-{shape}.thumb.webp', 'WEBP', quality=70, method=6)
        print(name, shape, flush=True)
