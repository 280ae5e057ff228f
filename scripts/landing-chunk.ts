import path from 'node:path';
import type { CodeSplittingGroup, ChunkingContext } from 'rolldown';

/**
 * One chunk for the code every landing page needs (issue 13). Left to itself the bundler splits
 * the modules the pages share into a dozen small chunks (the router, the query client, the API
 * helpers, the messages), each of them a request on the first load's critical path; on a phone's
 * connection each request waits its turn. This group puts every module that all of the given
 * pages import statically, however deep, into one chunk: the same bytes in one request. Modules
 * only some of them use stay in their own chunks, so no page loads code it does not run.
 */
export function landingChunk(root: string, pages: string[]): CodeSplittingGroup {
  let shared: Set<string> | undefined;
  const closureOf = (id: string, ctx: ChunkingContext, into = new Set<string>()) => {
    if (into.has(id)) return into;
    into.add(id);
    for (const imported of ctx.getModuleInfo(id)?.importedIds ?? []) closureOf(imported, ctx, into);
    return into;
  };
  return {
    debugName: 'landing',
    name: (moduleId, ctx) => {
      shared ??= pages
        .map((page) => closureOf(path.resolve(root, page), ctx))
        .reduce((common, closure) => new Set([...common].filter((id) => closure.has(id))));
      return shared.has(moduleId) ? 'landing' : null;
    },
  };
}
