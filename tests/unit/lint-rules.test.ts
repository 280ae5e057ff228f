import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import rules docs/architecture.md promises, as ESLint (eslint.config.js) checks them: each
// file in tests/fixtures/lint is linted as if it lived at the path on its first line
// (`// lint as: …`) and must break exactly the rule on its second (`// expect: …`), or none. The
// folder itself is skipped by ESLint and TypeScript: those files are not part of the program.

const folder = 'tests/fixtures/lint';

const fixtures = fs
  .readdirSync(folder)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => {
    const text = fs.readFileSync(path.join(folder, name), 'utf8');
    const lintAs = /^\/\/ lint as: (\S+)$/m.exec(text)?.[1];
    const expected = /^\/\/ expect: (\S+)$/m.exec(text)?.[1];
    if (!lintAs || !expected) throw new Error(`${name} names no path to lint it as, or no expected rule`);
    return { name, text, lintAs, expected: expected === 'none' ? [] : [expected] };
  });

describe('the layering rules', () => {
  const eslint = new ESLint();

  it('has fixtures that break each rule and fixtures that break none', () => {
    expect(fixtures.filter((fixture) => fixture.expected.length > 0).length).toBeGreaterThanOrEqual(5);
    expect(fixtures.filter((fixture) => fixture.expected.length === 0).length).toBeGreaterThanOrEqual(3);
  });

  it.each(fixtures)(
    '$name, as $lintAs',
    async ({ text, lintAs, expected }) => {
      const [result] = await eslint.lintText(text, { filePath: path.resolve(lintAs) });
      const broken = result!.messages.map((message) => `${message.ruleId ?? 'parsing'}: ${message.message}`);
      expect(
        result!.messages.map((message) => message.ruleId),
        broken.join('\n'),
      ).toEqual(expected);
    },
    60_000,
  );
});
