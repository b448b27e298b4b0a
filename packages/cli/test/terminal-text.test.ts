/**
 * Spec text, a server's text and a kept parser verdict reach the terminal with their control characters
 * shown, never obeyed (issue 32, item 17): `ESC [1A ESC [2K` erasing the lines above and a line break
 * drawing a forged "0 breaking" line. One rule: the generator's terminalText is the conformance
 * console's visible() for every code point, and spec, diff and generate print through it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalText } from '@exchange-api/codegen';
import { verdictSlot } from '../../../tools/codegen/src/load/parse-cache';
import { visible } from '../../conformance/src/reporters/visible';
import { runDiff } from '../src/commands/diff';
import { runGenerate } from '../src/commands/generate';
import { runSpecSummary } from '../src/commands/spec';
import type { Io } from '../src/args';

/** What a terminal obeys: C0 but the line break the command itself writes, DEL, C1 and the bidi controls. */
// eslint-disable-next-line no-control-regex
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ERASE = '\u001b[1A\u001b[2K\r';
const FORGED = `${ERASE}\u009b2Kno breaking changes`;

async function captured(run: (argv: string[], io: Io) => Promise<number>, argv: string[]) {
  const lines: string[] = [];
  const status = await run(argv, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  return { status, text: lines.join('\n') };
}

/** A spec (JSON, so any character is written as an escape) with a hostile title, channel and enum value. */
function hostileSpec(extraValue = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'terminal-text-'));
  const channel = `readings${ERASE}`;
  const spec = {
    asyncapi: '3.0.0',
    info: { title: `Weather${FORGED}`, version: '1.0.0' },
    channels: {
      [channel]: {
        address: `readings${ERASE}`,
        messages: { reading: { payload: { $ref: '#/components/schemas/Reading' } } },
      },
      ...(extraValue ? { [`alerts${FORGED}`]: { address: `alerts${FORGED}` } } : {}),
    },
    operations: { onReading: { action: 'receive', channel: { $ref: `#/channels/${encodeURIComponent(channel)}` } } },
    components: {
      schemas: {
        Reading: {
          type: 'object',
          properties: { unit: { $ref: '#/components/schemas/Unit' } },
        },
        Unit: { type: 'string', enum: ['celsius', ...(extraValue ? [extraValue] : [])] },
      },
    },
  };
  const file = join(dir, extraValue ? 'new.json' : 'old.json');
  writeFileSync(file, JSON.stringify(spec, null, 2));
  return file;
}

describe('the one escape rule for the terminal', () => {
  it('is the conformance console’s, for every code point of the Basic Multilingual Plane', () => {
    for (let code = 0; code < 0x10000; code++) {
      const c = String.fromCharCode(code);
      if (terminalText(c) !== visible(c)) expect([code, terminalText(c)]).toEqual([code, visible(c)]);
    }
    expect(terminalText(FORGED)).toBe('\\x1b[1A\\x1b[2K\\r\\x9b2Kno breaking changes');
    expect(terminalText('a\nb\u202ec')).toBe('a\\nb\\u202ec');
  });

  it('spec prints a hostile title and address as escapes', async () => {
    const r = await captured(runSpecSummary, ['--spec', hostileSpec()]);
    expect(r.status, r.text).toBe(0);
    expect(r.text).not.toMatch(OBEYED);
    expect(r.text).toContain('spec ok: Weather\\x1b[1A\\x1b[2K\\r\\x9b2Kno breaking changes 1.0.0');
    expect(r.text).toContain('readings\\x1b[1A\\x1b[2K\\r');
  });

  it('diff’s console report prints a hostile channel address and enum value escaped', async () => {
    const value = `kelvin\n\nclient side: 0 breaking${FORGED}`;
    const r = await captured(runDiff, [hostileSpec(), hostileSpec(value)]);
    expect(r.status, r.text).toBe(0);
    expect(r.text).not.toMatch(OBEYED);
    // A value is quoted as JSON; a channel's address is not, and is what reached the terminal raw.
    expect(r.text).toContain('channel alerts\\x1b[1A\\x1b[2K\\r\\x9b2Kno breaking changes');
    // The report's own lines are still lines: only the spec's text is escaped.
    expect(r.text.split('\n')[0]).toMatch(/^diff 1\.0\.0 → 1\.0\.0: \d+ change/);
  });

  it(
    'a planted parser verdict prints escaped in spec’s notes; generate’s diagnostics ' +
      'name a hostile channel escaped',
    async () => {
      const file = hostileSpec();
      const message = `looks fine${FORGED}`;
      verdictSlot(readFileSync(file, 'utf8'), file)!.write([{ severity: 1, path: ['info'], message, code: 'planted' }]);
      const spec = await captured(runSpecSummary, ['--spec', file]);
      expect(spec.text).toContain('looks fine\\x1b[1A');
      expect(spec.text).not.toMatch(OBEYED);
      const out = mkdtempSync(join(tmpdir(), 'terminal-text-sdk-'));
      const generate = await captured(runGenerate, ['--spec', file, '--out', out]);
      expect(generate.status, generate.text).toBe(0);
      // generate's diagnostics are the notes of the defaults it applied, which name the places.
      expect(generate.text).toContain('(1 place: channel readings\\x1b[1A\\x1b[2K\\r)');
      expect(generate.text).not.toMatch(OBEYED);
    },
    120_000,
  );

  it('a spec error quoting the spec prints escaped', async () => {
    const file = hostileSpec();
    const text = readFileSync(file, 'utf8');
    verdictSlot(text, file)!.write([{ severity: 0, path: ['info'], message: `bad${FORGED}`, code: 'planted' }]);
    const r = await captured(runSpecSummary, ['--spec', file]);
    expect(r.status).toBe(2);
    expect(r.text).toContain('bad\\x1b[1A');
    expect(r.text).not.toMatch(OBEYED);
  });
});
