/** The server's entry points (scripts/build-server.mjs). */
export const serverEntries: Record<string, string>;
/** What the compiled server is made of: a build older than any of these is out of date. */
export const serverSources: string[];
/** Compiles server/ and shared/ to `outdir` (dist-server/ by default) and answers that folder. */
export function buildServer(outdir?: string): Promise<string>;
