// The demo's scenes and the prompts people would have typed to get them. Images are painted for
// their prompt when asked for (painted-image.ts, under PAINTED_PATH); a few scenes also exist as
// short clips with posters, rendered once (server/emulator/assets/demo/, scripts/demo-assets.py).
// The seeded history (server/entry/demo-history.ts) picks from here, so a demo never shows a
// placeholder.

export const DEMO_ASSETS_PATH = '/emulator/media/demo';
/** The history's painted images: `<scene>-p<prompt>-<shape>-v<variant>[.thumb].png`. */
export const PAINTED_PATH = '/emulator/media/painted';

type SceneShape = '16x9' | '9x16' | '1x1';

interface Scene {
  name: string;
  /** What people asked for, each a prompt that this scene answers. */
  prompts: string[];
  /** Image-to-video prompts for a clip made from this scene; empty when it has no clip. */
  motions: string[];
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
  },
  {
    name: 'misty-forest',
    prompts: [
      'Misty pine forest on rolling hills, moody, overcast light',
      'Layers of fog between forested ridges, Scandinavian calm',
      'Quiet evergreen hills in morning fog, muted greens, editorial',
    ],
    motions: [],
  },
  {
    name: 'dunes',
    prompts: [
      'Sand dunes at golden hour, long shadows, minimal composition',
      'Desert landscape with wind-carved dunes, warm tones, wide angle',
      'Minimal dune ridges under a pale blue sky, travel poster style',
    ],
    motions: [],
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
  },
  {
    name: 'liquid-marble',
    prompts: [
      'Abstract liquid marble in teal and gold, macro, glossy',
      'Flowing ink swirls, emerald and amber, high detail background',
      'Marbled paper texture in deep teal with gold veins',
    ],
    motions: [],
  },
  {
    name: 'city-bokeh',
    prompts: [
      'City lights at night, shallow depth of field, warm bokeh',
      'Out-of-focus street lights in the rain, cinematic bokeh',
      'Festive bokeh background for a holiday newsletter',
    ],
    motions: [],
  },
  {
    name: 'moonlit-peaks',
    prompts: [
      'Snow-capped peaks under a full moon, starry sky, blue hour',
      'Moonlit mountain range, crisp winter night, high contrast',
      'Full moon rising over snowy summits, calm and cold',
    ],
    motions: [],
  },
  {
    name: 'city-skyline',
    prompts: [
      'City skyline at dusk, lit windows, reflections on the river',
      'Downtown skyline at night, warm windows, cinematic',
    ],
    motions: [],
  },
  {
    name: 'portrait',
    prompts: [
      'Backlit studio portrait of a woman, warm bokeh, rim light',
      'Portrait of a team lead, soft rim light, dark background',
    ],
    motions: [],
  },
  {
    name: 'product',
    prompts: [
      'Product shot of a glass bottle on a seamless backdrop, soft shadow',
      'Ceramic coffee mug, studio packshot, soft daylight',
    ],
    motions: [],
  },
  {
    name: 'night-sky',
    prompts: ['Milky Way over dark hills, starry night sky, long exposure'],
    motions: [],
  },
  {
    name: 'alpine-lake',
    prompts: ['Still alpine lake with mountain reflection, morning light'],
    motions: [],
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

const SHAPE_RATIO: Record<SceneShape, string> = { '16x9': '16:9', '9x16': '9:16', '1x1': '1:1' };

/** The file name of a history image: a scene's prompt in a shape, one of a few variants. */
export function paintedDemoName(
  scene: string,
  prompt: number,
  shape: SceneShape,
  variant: number,
  thumbnail: boolean,
) {
  return `${scene}-p${prompt}-${shape}-v${variant}${thumbnail ? '.thumb' : ''}.png`;
}

/** What a history image's file name asks to paint, or undefined for a name paintedDemoName cannot make. */
export function paintedDemoImage(
  file: string,
): { prompt: string; seed: string; ratio: string; longSide: number } | undefined {
  const match = /^([a-z-]+)-p(\d{1,2})-(16x9|9x16|1x1)-v(\d)(\.thumb)?\.png$/.exec(file);
  const prompt = match && SCENES.find((scene) => scene.name === match[1])?.prompts[Number(match[2])];
  if (!match || !prompt) return undefined;
  return {
    prompt,
    seed: `${match[1]}-${match[2]}-${match[4]}`,
    ratio: SHAPE_RATIO[match[3] as SceneShape],
    longSide: match[5] ? 400 : 1024,
  };
}
