/** The README's list of checks is the registry's: regenerate with `UPDATE_README=1`. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checksTable } from './checks-table';

const path = fileURLToPath(new URL('../README.md', import.meta.url));
const BEGIN = '<!-- checks:begin (generated from the registry by test/readme.test.ts; UPDATE_README=1 rewrites it) -->';
const END = '<!-- checks:end -->';

describe('README', () => {
  it('lists every check of the registry with its section, level and needs', () => {
    const readme = readFileSync(path, 'utf8');
    const start = readme.indexOf(BEGIN);
    const end = readme.indexOf(END);
    expect(start, 'README has the checks markers').toBeGreaterThan(-1);
    const current = readme.slice(start + BEGIN.length, end).trim();
    const wanted = checksTable();
    if (process.env.UPDATE_README && current !== wanted)
      writeFileSync(path, `${readme.slice(0, start + BEGIN.length)}\n${wanted}\n${readme.slice(end)}`);
    else expect(current).toBe(wanted);
  });
});
