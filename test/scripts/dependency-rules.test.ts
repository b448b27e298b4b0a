/**
 * The dependency check (.dependency-cruiser.cjs, run by `npm test` over every package's sources)
 * fails on what it is there to catch: an import against the layer order and an import cycle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), 'exchange-api-deps-'));
  copyFileSync(join(repo, 'tsconfig.base.json'), join(dir, 'tsconfig.base.json'));
  for (const group of ['packages', 'tools']) mkdirSync(join(dir, group));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
const cruise = () =>
  spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      '--config',
      join(repo, '.dependency-cruiser.cjs'),
      '--output-type',
      'err',
      'packages',
      'tools',
    ],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    },
  );

describe('dependency rules', () => {
  it('an import that runs against the layer order fails, naming the rule and both files', () => {
    tree({
      'packages/types/src/index.ts': "export { client } from '../../client/src/index';\n",
      'packages/client/src/index.ts': 'export const client = 1;\n',
    });
    const r = cruise();
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain('layer-types: packages/types/src/index.ts → packages/client/src/index.ts');
  });

  it('an import cycle fails', () => {
    tree({
      'tools/codegen/src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'tools/codegen/src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    const r = cruise();
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain('no-circular');
  });

  it(
    'inside the generator, the folders import one way: the emitters not the diff, ' +
      'nothing below an entry file that file, the model not the emitters',
    () => {
      tree({
        'tools/codegen/src/emit/page.ts':
          "import type { Change } from '../diff/change';\nexport type Shown = Change;\n",
        'tools/codegen/src/diff/change.ts': 'export interface Change { rule: string }\n',
        'tools/codegen/src/diff/diff-specs.ts': "export { modelOfSpec } from '../generate';\n",
        'tools/codegen/src/generate.ts': 'export const modelOfSpec = () => 1;\n',
        'tools/codegen/src/model/build.ts': "export { tsName } from '../emit/naming';\n",
        'tools/codegen/src/emit/naming.ts': 'export const tsName = (s: string) => s;\n',
        'tools/codegen/src/load/load.ts': "export { tsName } from '../model/naming';\n",
        'tools/codegen/src/model/naming.ts': 'export const tsName = (s: string) => s;\n',
      });
      const r = cruise();
      expect(r.status).not.toBe(0);
      expect(r.stdout).toContain('codegen-emit: tools/codegen/src/emit/page.ts → tools/codegen/src/diff/change.ts');
      expect(r.stdout).toContain('codegen-diff: tools/codegen/src/diff/diff-specs.ts → tools/codegen/src/generate.ts');
      expect(r.stdout).toContain('codegen-entry: tools/codegen/src/diff/diff-specs.ts → tools/codegen/src/generate.ts');
      expect(r.stdout).toContain('codegen-model: tools/codegen/src/model/build.ts → tools/codegen/src/emit/naming.ts');
      expect(r.stdout).toContain('codegen-load: tools/codegen/src/load/load.ts → tools/codegen/src/model/naming.ts');
    },
  );

  it('inside the generator, imports down the folders pass', () => {
    tree({
      'tools/codegen/src/load/spec.ts': 'export const spec = 1;\n',
      'tools/codegen/src/model/model.ts': "export { spec } from '../load/spec';\n",
      'tools/codegen/src/emit/types.ts': "export { spec } from '../model/model';\n",
      'tools/codegen/src/diff/diff.ts': "export { spec } from '../model/model';\n",
      'tools/codegen/src/generate.ts':
        "export { spec } from './emit/types';\nexport { spec as s } from './diff/diff';\n",
      'tools/codegen/src/index.ts': "export { spec } from './generate';\n",
    });
    const r = cruise();
    expect(r.stdout + r.stderr).toContain('no dependency violations found');
    expect(r.status).toBe(0);
  });

  it('imports along the layer order pass', () => {
    tree({
      'packages/types/src/index.ts': 'export const t = 1;\n',
      'packages/client/src/index.ts': "export { t } from '../../types/src/index';\n",
    });
    const r = cruise();
    expect(r.stdout + r.stderr).toContain('no dependency violations found');
    expect(r.status).toBe(0);
  });
});
