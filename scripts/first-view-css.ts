// Picks the client's rules that the pages drawn before their app starts bring with them
// (server/http/first-view/picked-rules.ts names them), scopes them to the first view's block and
// writes them, compact, to server/http/first-view/picked-rules.generated.ts, so the server sends
// the app's own rules without parsing CSS as it runs. `npm run build`, `npm start` and `npm run dev`
// run it; tests/unit/first-view-css.test.ts fails when the written module is stale.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import postcss, { type ChildNode } from 'postcss';
import { FIRST_VIEW, FIRST_VIEW_PICKS, type RulePick } from '../server/http/first-view/picked-rules';

const root = path.resolve(import.meta.dirname, '..');

/** The module the server imports, from the repository's root. */
export const PICKED_RULES_MODULE = 'server/http/first-view/picked-rules.generated.ts';

const BLOCK = `.${FIRST_VIEW}`;

/**
 * A selector of the client's, made to apply inside the first view's block alone: the page's
 * root is the block itself, and so is an element of a pick `onBlock`.
 */
function scoped(selector: string, onBlock: boolean): string {
  if (/^:root(?![\w-])/.test(selector)) return BLOCK + selector.slice(':root'.length);
  return onBlock ? BLOCK + selector : `${BLOCK} ${selector}`;
}

const foldSpaces = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A value with its white space folded to one space, none around a comma, quoted text untouched. */
const compactValue = (value: string) =>
  value
    .replace(/('[^']*'|"[^"]*")|\s*,\s*|\s+/g, (match, quoted?: string) => quoted ?? (match.includes(',') ? ',' : ' '))
    .trim();

/**
 * A stylesheet's rules that `pick` names, scoped, one compact rule a string, in the stylesheet's
 * order: a rule whose selector list names one of the pick's selectors comes whole, inside its
 * @media if it has one. Rules inside other at-rules are left: @supports (the tabs' scroll fade)
 * leans on @property and @keyframes that only the full stylesheet declares. Throws when a
 * selector named is not in the stylesheet, so a class renamed in the client fails the build and
 * the tests rather than the page, silently.
 */
export function pickRules(css: string, pick: RulePick): string[] {
  const wanted = new Set(pick.selectors?.map(foldSpaces));
  const found = new Set<string>();
  const isPicked = (selectors: string[]) => {
    const named = selectors.map(foldSpaces).filter((selector) => wanted.has(selector));
    named.forEach((selector) => found.add(selector));
    return pick.selectors === undefined || named.length > 0;
  };
  const compact = (nodes: ChildNode[]): string[] =>
    nodes.flatMap((node) => {
      if (node.type === 'rule') {
        if (!isPicked(node.selectors)) return [];
        const selectors = node.selectors.map((selector) => scoped(foldSpaces(selector), pick.onBlock ?? false));
        const declarations = (node.nodes ?? []).flatMap((child) =>
          child.type === 'decl'
            ? [`${child.prop}:${compactValue(child.value)}${child.important ? '!important' : ''}`]
            : [],
        );
        return [`${selectors.join(',')}{${declarations.join(';')}}`];
      }
      if (node.type === 'atrule' && node.name === 'media') {
        const inside = compact(node.nodes ?? []);
        return inside.length > 0 ? [`@media ${foldSpaces(node.params)}{${inside.join('')}}`] : [];
      }
      return [];
    });
  const rules = compact(postcss.parse(css, { from: pick.file }).nodes);
  const missing = [...wanted].filter((selector) => !found.has(selector));
  if (missing.length > 0) throw new Error(`${pick.file} has no rule for ${missing.join(', ')} (picked-rules.ts)`);
  return rules;
}

/** Every rule the picks name, from the client's stylesheets as they are on disk. */
export const pickedRules = (picks: readonly RulePick[]): string[] =>
  picks.flatMap((pick) => pickRules(fs.readFileSync(path.join(root, pick.file), 'utf8'), pick));

/** A string literal as prettier writes it: single quotes, unless the text holds more of them. */
function literal(text: string): string {
  const quote = (text.match(/'/g)?.length ?? 0) > (text.match(/"/g)?.length ?? 0) ? '"' : "'";
  return quote + text.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`) + quote;
}

/** The text of picked-rules.generated.ts, from the stylesheets as they are on disk. */
export function pickedRulesModule(): string {
  const pages = Object.entries(FIRST_VIEW_PICKS).map(([page, picks]) =>
    [`  ${page}: [`, ...pickedRules(picks).map((rule) => `    ${literal(rule)},`), `  ].join(''),`].join('\n'),
  );
  return [
    "// Written by scripts/first-view-css.ts from the client's stylesheets, as picked-rules.ts picks",
    '// them, when the server is built and as `npm run dev` runs: not to be edited by hand. Written',
    '// again with `npx tsx scripts/first-view-css.ts`; tests/unit/first-view-css.test.ts fails when',
    '// it is stale.',
    '',
    "/** The client's rules each page drawn before its app starts brings, scoped to its block. */",
    'export const PICKED_RULES = {',
    ...pages,
    '};',
    '',
  ].join('\n');
}

/** Writes the module when the stylesheets give another one; answers whether it did. */
export function writePickedRulesModule(): boolean {
  const file = path.join(root, PICKED_RULES_MODULE);
  const text = pickedRulesModule();
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return false;
  fs.writeFileSync(file, text);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (writePickedRulesModule()) console.log(`Wrote ${PICKED_RULES_MODULE}`);
}
