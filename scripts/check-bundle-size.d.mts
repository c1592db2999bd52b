// Types of check-bundle-size.mjs, so TypeScript callers (tests, bench) can import it.
export interface InitialAssets {
  js: string[];
  css: string[];
}
export interface MeasuredFile {
  path: string;
  bytes: number;
  gzip: number;
}
export interface Measured {
  js: MeasuredFile[];
  css: MeasuredFile[];
  jsGzip: number;
  cssGzip: number;
}
export declare const KB: number;
export declare const BUDGETS: { js: number; css: number };
export declare function parseInitialAssets(html: string): InitialAssets;
export declare function gzipSize(buffer: Uint8Array): number;
export declare function measureInitialAssets(distDir?: string): Measured;
export declare function formatKb(bytes: number): string;
export declare function checkBudgets(
  measured: Measured,
  budgets?: { js: number; css: number },
): { ok: boolean; lines: string[] };
