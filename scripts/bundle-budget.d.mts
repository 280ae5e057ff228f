/** scripts/bundle-budget.mjs */
export const BUDGET_KB: number;
export const BUDGETED_PAGES: string[];
export function criticalPathKb(dist: string, page: string): number;
export const EMBED_BUDGET_KB: number;
export function embedKb(dist: string): number;
