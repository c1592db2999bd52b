// JSON that PostgreSQL can keep. JSON.parse accepts "\u0000" and lone surrogates ("\ud800"), but
// PostgreSQL's text cannot hold U+0000 and jsonb refuses both: one such callback answered 500 on
// every delivery, and the service would retry it for ever. Such characters are stored as their
// JSON escape written out as visible text (`\u0000`), so the callback is kept and shown, not lost.
// Nesting is bounded too: JSON.stringify and jsonb both recurse, and a body nested thousands deep
// would overflow one of them (another 500) instead of being refused.

/** Levels of objects and arrays a stored body may have (a callback body has 2). */
export const MAX_JSON_DEPTH = 64;

// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with U+0000 and lone surrogates written as `\uXXXX` (six visible characters). */
function storableText(text: string): string {
  return text.replace(UNSTORABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const TOO_DEEP = Symbol('nested too deeply');

/**
 * A copy of a parsed JSON value with every string and key made storable, or TOO_DEEP when it has
 * more than `maxDepth` levels of objects and arrays.
 */
export function storableJson(value: unknown, maxDepth = MAX_JSON_DEPTH): unknown {
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return storableText(item);
    if (item === null || typeof item !== 'object') return item;
    if (depth >= maxDepth) throw TOO_DEEP;
    if (Array.isArray(item)) return item.map((entry) => walk(entry, depth + 1));
    // fromEntries defines each key as its own property, even one named "__proto__".
    return Object.fromEntries(
      Object.entries(item).map(([key, entry]) => [storableText(key), walk(entry, depth + 1)]),
    );
  };
  try {
    return walk(value, 0);
  } catch (error) {
    if (error === TOO_DEEP) return TOO_DEEP;
    throw error;
  }
}
