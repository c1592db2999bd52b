// The demo's media (server/emulator/assets/demo/, made by scripts/demo-assets.py): procedural scenes
// rendered in three shapes, a few of them as short clips with posters, and the prompts people would
// have typed to get them. The seeded history (server/entry/demo-history.ts) and the emulator's own image results
// (svg.ts) both pick from here, so a demo never shows a placeholder.

export const DEMO_ASSETS_PATH = '/emulator/media/demo';

type SceneShape = '16x9' | '9x16' | '1x1';

interface Scene {
  name: string;
  /** What people asked for, each a prompt that this scene answers. */
  prompts: string[];
  /** Image-to-video prompts for a clip made from this scene; empty when it has no clip. */
  motions: string[];
  /** Words that pick this scene for a prompt typed in the demo. */
  keywords: RegExp;
}

export const SCENES: Scene[] = [
  {
    name: 'alpine-sunrise',
    prompts: [
      'Sea of clouds over mountain ridges at sunrise, soft volumetric light',
      'Layered mountain silhouettes at dawn, warm haze, cinematic wide shot',
      'Sunrise above the Alps from a summit, pastel sky, 35mm film look',
      'Misty valleys at first light, golden glow behind the peaks',
    ],
    motions: ['Slow push-in over the ridges as the sun rises', 'Gentle drone drift across the sea of clouds'],
    keywords: /sunrise|dawn|mountain|alps|ridge|valley|cloud|lighthouse|cliff/i,
  },
  {
    name: 'misty-forest',
    prompts: [
      'Misty pine forest on rolling hills, moody, overcast light',
      'Layers of fog between forested ridges, Scandinavian calm',
      'Quiet evergreen hills in morning fog, muted greens, editorial',
    ],
    motions: [],
    keywords: /forest|pine|fog|mist|tree|woods|hill|rain|terrace|field/i,
  },
  {
    name: 'dunes',
    prompts: [
      'Sand dunes at golden hour, long shadows, minimal composition',
      'Desert landscape with wind-carved dunes, warm tones, wide angle',
      'Minimal dune ridges under a pale blue sky, travel poster style',
    ],
    motions: [],
    keywords: /dune|desert|sand|sahara|travel|poster|map|town/i,
  },
  {
    name: 'ocean-sunset',
    prompts: [
      'Calm ocean at sunset, sun reflecting on gentle waves',
      'Golden hour over the sea, pink clouds, peaceful horizon',
      'Sunset seascape for a summer campaign hero banner',
      'Warm evening light over a quiet bay, soft clouds',
    ],
    motions: [
      'Waves shimmer in the low sun, slow pan to the horizon',
      'Time-lapse feel: clouds drift while the sun sets',
    ],
    keywords: /ocean|sea|sunset|beach|wave|bay|coast|summer|water|lake/i,
  },
  {
    name: 'aurora',
    prompts: [
      'Northern lights over a frozen lake, stars, long exposure',
      'Aurora borealis in green and violet above dark hills',
      'Night sky with aurora reflected in still water, Iceland',
    ],
    motions: [
      'The aurora ripples slowly while the camera holds still',
      'Slow tilt up from the lake to the northern lights',
    ],
    keywords: /aurora|northern|stars|iceland|galaxy/i,
  },
  {
    name: 'liquid-marble',
    prompts: [
      'Abstract liquid marble in teal and gold, macro, glossy',
      'Flowing ink swirls, emerald and amber, high detail background',
      'Marbled paper texture in deep teal with gold veins',
    ],
    motions: [],
    keywords: /abstract|marble|liquid|ink|texture|pattern|background|gold|swirl|mug|coffee|product|ceramic/i,
  },
  {
    name: 'city-bokeh',
    prompts: [
      'City lights at night, shallow depth of field, warm bokeh',
      'Out-of-focus street lights in the rain, cinematic bokeh',
      'Festive bokeh background for a holiday newsletter',
    ],
    motions: [],
    keywords: /city|bokeh|light|neon|street|urban|festive|holiday|night market|cozy|nook|interior/i,
  },
  {
    name: 'moonlit-peaks',
    prompts: [
      'Snow-capped peaks under a full moon, starry sky, blue hour',
      'Moonlit mountain range, crisp winter night, high contrast',
      'Full moon rising over snowy summits, calm and cold',
    ],
    motions: [],
    keywords: /moon|snow|winter|peak|summit|cold|ice/i,
  },
];

/** The scenes that also exist as clips (`<name>-16x9.mp4`, `<name>-9x16.mp4`, posters `.jpg`). */
export const CLIP_SCENES = SCENES.filter((scene) => scene.motions.length > 0);

/** The clip a translated video gets: the source video's look does not depend on the language. */
export const TRANSLATION_CLIP = 'city-bokeh-16x9';

/** The shape among the rendered ones nearest to an aspect ratio such as "4:5" or "21:9". */
export function shapeFor(ratio: string): SceneShape {
  const [w, h] = ratio.split(':').map(Number);
  const value = w && h ? w / h : 1;
  return value > 1.2 ? '16x9' : value < 0.83 ? '9x16' : '1x1';
}

/** A small deterministic hash (FNV-1a), so one prompt or task id always gets the same scene. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The scene a prompt typed in the demo gets: the first whose words it mentions, else one by hash. */
export function sceneForPrompt(prompt: string, seed: string): Scene {
  return SCENES.find((scene) => scene.keywords.test(prompt)) ?? SCENES[hash32(seed) % SCENES.length]!;
}
