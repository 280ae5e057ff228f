import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PICKED_RULES_MODULE, pickedRulesModule, pickRules } from '../../scripts/first-view-css';

// The pages the server draws before their app starts bring the app's own rules, picked from the
// client's stylesheets (server/http/first-view/picked-rules.ts): the stylesheets are their one
// source, so the module the server imports must be what they give today.

describe("the first views' rules", () => {
  it("are the client's stylesheets' rules as they are now, every selector named found in its file", () => {
    // Picking throws on a selector its stylesheet no longer has (a class renamed in the client).
    const picked = pickedRulesModule();
    expect(
      fs.readFileSync(PICKED_RULES_MODULE, 'utf8'),
      `${PICKED_RULES_MODULE} is stale: run \`npx tsx scripts/first-view-css.ts\` (npm run build does) and commit it`,
    ).toBe(picked);
  });

  const css = `
    :root {
      --space: 4px;
    }
    /* Comments stay behind. */
    .page,
    .page > * {
      margin:  0   auto;
    }
    .other {
      font-family: 'Segoe  UI', sans-serif;
    }
    @media (min-width: 1024px) {
      .page {
        padding: var(--space) !important;
      }
      .other {
        color: blue;
      }
    }
    @supports (animation-timeline: scroll()) {
      .page {
        animation: fade linear both;
      }
    }
    .with-column {
      display: grid;
    }
  `;

  it('take the rules naming a selector, whole, in their @media, scoped to the block, in the file’s order', () => {
    expect(pickRules(css, { file: 'test.css', selectors: [':root', '.page'] })).toEqual([
      '.first-view{--space:4px}',
      '.first-view .page,.first-view .page > *{margin:0 auto}',
      '@media (min-width: 1024px){.first-view .page{padding:var(--space)!important}}',
    ]);
  });

  it('take every rule of a stylesheet named without selectors, but those inside @supports', () => {
    expect(pickRules(css, { file: 'test.css' })).toEqual([
      '.first-view{--space:4px}',
      '.first-view .page,.first-view .page > *{margin:0 auto}',
      ".first-view .other{font-family:'Segoe  UI',sans-serif}",
      '@media (min-width: 1024px){.first-view .page{padding:var(--space)!important}.first-view .other{color:blue}}',
      '.first-view .with-column{display:grid}',
    ]);
  });

  it('put a class the block itself carries on the block', () => {
    expect(pickRules(css, { file: 'test.css', selectors: ['.with-column'], onBlock: true })).toEqual([
      '.first-view.with-column{display:grid}',
    ]);
  });

  it('fail on a selector the stylesheet does not have', () => {
    expect(() => pickRules(css, { file: 'test.css', selectors: ['.page', '.renamed'] })).toThrow(
      'test.css has no rule for .renamed',
    );
  });
});
