// Types of check-bundle-size.mjs, so TypeScript callers (tests, bench) can import it.
export interface InitialAssets {
  js: string[];
  css: string[];
}
export interface MeasuredFile {
  path: string;
  bytes: number;
  /** As the production server sends it: brotli, or the file itself when too small to compress. */
  served: number;
  gzip: number;
}
export interface Measured {
  js: MeasuredFile[];
  css: MeasuredFile[];
  jsServed: number;
  cssServed: number;
  jsGzip: number;
  cssGzip: number;
}
export declare const KB: number;
export declare const BUDGETS: { js: number; css: number };
export declare function parseInitialAssets(html: string): InitialAssets;
export declare function gzipSize(buffer: Uint8Array): number;
export declare const BROTLI: { quality: number; minBytes: number };
export declare function servedSize(buffer: Uint8Array): number;
export declare function measureInitialAssets(distDir?: string): Measured;
export declare function formatKb(bytes: number): string;
export declare function checkBudgets(
  measured: Measured,
  budgets?: { js: number; css: number },
): { ok: boolean; lines: string[] };
