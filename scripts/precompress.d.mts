/** Writes .br and .gz copies beside every text file of at least 1 KB under `dir` (scripts/precompress.mjs). */
export function precompress(dir: string): { files: number; before: number; afterBrotli: number };
