/**
 * The name of a generated package is one npm accepts for a new package: an explicit --name npm would
 * refuse is a usage error; a name derived from info.title that npm would refuse is made safe, with a note.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageNameProblem } from '../src/index';
import { fixtureSpec, scratchDir, writeSpec } from './helpers';
import { runMain } from '../../../test/support/run-main';

const withTitle = (title: string) =>
  writeSpec(readFileSync(fixtureSpec, 'utf8').replace('title: Parcel Tracking API', `title: ${title}`));

describe('an explicit --name npm refuses is one line and exit 2, nothing written', () => {
  it.each([
    ['fs', /--name "fs" is the name of a Node core module/],
    ['http', /--name "http" is the name of a Node core module/],
    ['node_modules', /--name "node_modules" is a name npm reserves/],
    ['favicon.ico', /--name "favicon\.ico" is a name npm reserves/],
    ['.hidden', /--name "\.hidden" .*cannot start with \. or _/],
    ['_private', /--name "_private" .*cannot start with \. or _/],
    ['Upper', /--name "Upper" .*lower case/],
    ['x'.repeat(215), /longer than npm's 214 characters/],
  ])('%s', async (name, message) => {
    const out = join(scratchDir('bad-name-'), 'sdk');
    const r = await runMain(['generate', '--spec', fixtureSpec, '--out', out, '--name', name]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
    expect(existsSync(out)).toBe(false);
  });

  it('a scoped name whose package part is a core module name is fine (npm accepts @acme/fs)', () => {
    expect(packageNameProblem('@acme/fs')).toBeNull();
    expect(packageNameProblem('fs-sdk')).toBeNull();
  });
});

describe('a name derived from info.title that npm refuses is made safe, with a note', () => {
  it.each([
    ['fs', 'fs-sdk'],
    ['HTTP', 'http-sdk'],
  ])(
    'title %s → package %s',
    async (title, name) => {
      const out = join(scratchDir('title-name-'), 'sdk');
      const r = await runMain(['generate', '--spec', withTitle(title), '--out', out]);
      expect(r.status).toBe(0);
      expect(r.stderr).toContain(
        `note: the package name "${title.toLowerCase()}" derived from info.title ` +
          `is the name of a Node core module, which npm refuses: the package is named ` +
          `"${name}" (pass --name to choose another)`,
      );
      expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).name).toBe(name);
    },
    60_000,
  );
});
