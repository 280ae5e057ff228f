/** The server's entry points (scripts/build-server.mjs). */
export const serverEntries: Record<string, string>;
/** Compiles server/ and shared/ to `outdir` (dist-server/ by default) and answers that folder. */
export function buildServer(outdir?: string): Promise<string>;
