import fs from 'node:fs';
import path from 'node:path';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** What a page needs besides the entry: its chunk and everything that chunk imports statically. */
export type PageChunks = Record<string, { js: string[]; css: string[] }>;

export const PAGE_CHUNKS_FILE = 'page-chunks.json';

/**
 * Writes dist/page-chunks.json: for each landing page (by its name in shared/routes.ts), the
 * JavaScript and CSS files its own chunk needs beyond the entry's. The server preloads them in the
 * page's HTML, so they load beside the entry instead of after it (issue 13), and the bundle budget
 * (scripts/bundle-budget.mjs) weighs them.
 */
export function pageChunks(pages: Record<string, string>): Plugin {
  let root = '';
  return {
    name: 'soundcause-page-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    // After every other plugin's generateBundle: Vite drops chunks that only held CSS there.
    writeBundle(options, bundle: OutputBundle) {
      const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const closure = (file: string, into: Set<string>) => {
        if (into.has(file)) return into;
        into.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) if (byFile.has(imported)) closure(imported, into);
        return into;
      };
      // The app's entry (index.html's), not the embedded player's (vite.config.ts names both).
      const entry = chunks.find((chunk) => chunk.isEntry && chunk.name === 'index');
      if (!entry) throw new Error('page-chunks: the build has no entry chunk');
      const entryFiles = closure(entry.fileName, new Set());
      const cssOf = (file: string) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])];
      const entryCss = new Set([...entryFiles].flatMap(cssOf));
      const result: PageChunks = {};
      for (const [page, module] of Object.entries(pages)) {
        const moduleId = path.resolve(root, module);
        const chunk = chunks.find((candidate) => candidate.facadeModuleId === moduleId);
        if (!chunk) throw new Error(`page-chunks: no chunk for ${module} (page ${page})`);
        const files = [...closure(chunk.fileName, new Set())].filter((file) => !entryFiles.has(file));
        result[page] = {
          js: files,
          css: [...new Set(files.flatMap(cssOf))].filter((file) => !entryCss.has(file)),
        };
      }
      fs.writeFileSync(path.join(options.dir ?? '', PAGE_CHUNKS_FILE), JSON.stringify(result, null, 2));
    },
  };
}
