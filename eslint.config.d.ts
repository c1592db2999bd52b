// The import tables eslint.config.js exports, for scripts/import-rules.test.ts.
export const SERVER_LAYERS: Record<string, string[]>;
export const FEATURES: string[];
declare const config: unknown[];
export default config;
