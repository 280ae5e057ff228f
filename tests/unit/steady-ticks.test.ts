import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// server/start/steady-ticks.ts: after a quiet spell of full collections, V8 has forgotten the
// shape of Node's tick objects and marks the stores that build one megamorphic for good, so each
// is then built by V8's runtime; with one tick object kept, the stores stay monomorphic. Each run
// is its own process (tests/fixtures/tick-shapes.ts), for V8's natives syntax and gc().

const fixture = path.resolve(import.meta.dirname, '../fixtures/tick-shapes.ts');

function afterQuietSpell(mode: 'keep' | 'plain') {
  // Into a file: V8 prints its feedback with C's stdio, which drops what a pipe left non-blocking
  // by Node cannot take at once.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tick-shapes-'));
  const file = path.join(dir, 'out.txt');
  const out = fs.openSync(file, 'w');
  try {
    execFileSync(process.execPath, ['--import', 'tsx', '--allow-natives-syntax', '--expose-gc', fixture, mode], {
      stdio: ['ignore', out, 'inherit'],
    });
  } finally {
    fs.closeSync(out);
  }
  const output = fs.readFileSync(file, 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  const states = [...output.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]);
  const report = JSON.parse(output.split('\n').find((line) => line.startsWith('{'))!) as {
    kept: boolean;
    sameShapeAsKept: boolean;
  };
  return { states, ...report };
}

describe("the tick objects' shapes", () => {
  it('are forgotten by V8 after a quiet spell, which makes building a tick object slow for good', () => {
    // The four stores of the tick object's literal. If this Node no longer forgets them,
    // steady-ticks.ts has nothing left to do and can go.
    const { states } = afterQuietSpell('plain');
    expect(states).toHaveLength(4);
    expect(states.slice(1)).toEqual(['MEGAMORPHIC', 'MEGAMORPHIC', 'MEGAMORPHIC']);
  });

  it('stay known when one tick object is kept, as the server keeps one from its start', () => {
    const { states, kept, sameShapeAsKept } = afterQuietSpell('keep');
    expect(kept).toBe(true);
    // Tick objects made after the quiet spell have the kept one's shape: the one V8 knows.
    expect(sameShapeAsKept).toBe(true);
    expect(states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });
});
