/** scripts/sizes.mjs: a long function or file fails the check unless CONTRIBUTING.md's Sizes section names it. */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/sizes.mjs', import.meta.url));
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree(readme: string, bodyLines: number) {
  dir = mkdtempSync(join(tmpdir(), 'exchange-api-sizes-'));
  mkdirSync(join(dir, 'packages/p/src'), { recursive: true });
  mkdirSync(join(dir, 'packages/p/src/generated'));
  mkdirSync(join(dir, 'tools'));
  writeFileSync(join(dir, 'CONTRIBUTING.md'), readme);
  const body = Array.from({ length: bodyLines }, (_, i) => `  total += ${i};`).join('\n');
  writeFileSync(
    join(dir, 'packages/p/src/long.ts'),
    `export function long(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`,
  );
  // Generated files are not the house's to size.
  writeFileSync(join(dir, 'packages/p/src/generated/big.gen.ts'), 'export const x = 1;\n'.repeat(900));
}
const run = () => spawnSync(process.execPath, [script, dir], { encoding: 'utf8', timeout: 30_000 });

describe('sizes', () => {
  it('a function over 60 lines fails, named with its file and line', () => {
    tree('# P\n', 70);
    const r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('packages/p/src/long.ts:1 long: 74 lines (function limit 60)');
  });

  it('a function CONTRIBUTING.md names under "Sizes" passes', () => {
    tree('# P\n\n## Sizes\n- `packages/p/src/long.ts:long`: one table, better read whole.\n\n## Next\n', 70);
    const r = run();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('over 20 source lines over 120 characters fail, each named; generated files and fixtures do not count', () => {
    tree('# P\n', 3);
    const wide = (n: number) => `export const s = '${'x'.repeat(130)}';\n`.repeat(n);
    writeFileSync(join(dir, 'packages/p/src/wide.ts'), wide(20));
    // The generator's manifest names what it wrote; a fixture is an input taken as it is.
    writeFileSync(join(dir, 'packages/p/src/generated/.generated-files.json'), '{"files":["wide.gen.ts"]}');
    writeFileSync(join(dir, 'packages/p/src/generated/wide.gen.ts'), wide(5));
    mkdirSync(join(dir, 'packages/p/test/fixtures'), { recursive: true });
    writeFileSync(join(dir, 'packages/p/test/fixtures/wide.ts'), wide(5));
    expect(run().stdout).toContain('20 source lines over 120 characters (at most 20)');
    writeFileSync(join(dir, 'packages/p/test/wide.test.ts'), wide(1));
    const r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('sizes: 21 hand-written source lines over 120 characters (at most 20;');
    expect(r.stderr).toContain('packages/p/test/wide.test.ts:1: 150 characters');
    expect(r.stderr).not.toContain('generated');
    expect(r.stderr).not.toContain('fixtures');
  });

  it('a file over 400 lines fails; short functions pass', () => {
    tree('# P\n', 3);
    writeFileSync(join(dir, 'packages/p/src/many.ts'), 'export const y = 1;\n'.repeat(450));
    const r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('packages/p/src/many.ts: 451 lines (file limit 400)');
    expect(r.stderr).not.toContain('long.ts');
  });
});
