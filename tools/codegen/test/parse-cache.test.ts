/**
 * The parser's verdicts kept by content (load/parse-cache.ts): a spec loaded again reads its verdict
 * instead of parsing; a changed text, a text that refers to another file, a damaged file and the
 * switch turn it off; the folder keeps its size and nothing of anyone else's is removed from it.
 * A verdict planted for a text proves it is read: the parser would never say what the plant says.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '../src/index';
import { verdictSlot } from '../src/load/parse-cache';
import { miniSpec, writeSpec } from './helpers';

const plant = { severity: 1, path: ['info'], message: 'a verdict kept for this text', code: 'planted' };
const planted = (notes: { message: string }[]) => notes.some((n) => n.message.includes('a verdict kept for this text'));

/** A spec of its own for each test (a title nobody else uses), its file and its text. */
function uniqueSpec(): { file: string; text: string } {
  const text = miniSpec(`x-id: ${Math.random()}\nchannels: {}\n`).replace('title: Mini', `title: Mini ${Date.now()}`);
  return { file: writeSpec(text), text };
}

afterEach(() => {
  delete process.env.EXCHANGE_API_PARSE_CACHE;
});

describe('the parser verdict cache', () => {
  it('a spec loaded again reads the verdict kept for its text, on disk beside the parser', async () => {
    const { file, text } = uniqueSpec();
    const slot = verdictSlot(text)!;
    expect(slot.file).toMatch(/node_modules[/\\]\.cache[/\\]exchange-api[/\\]parser[/\\][0-9a-f]{64}\.json$/);
    expect(existsSync(slot.file!)).toBe(false);
    const first = await loadSpec(file);
    expect(planted(first.notes)).toBe(false);
    // The parser's verdict was written whole: the format and the diagnostics.
    const kept = JSON.parse(readFileSync(slot.file!, 'utf8'));
    expect(kept.format).toMatch(/^exchange-api parser verdict/);
    expect(Array.isArray(kept.diagnostics)).toBe(true);
    slot.write([plant]);
    expect(planted((await loadSpec(file)).notes)).toBe(true);
  });

  it('parseCache: false and EXCHANGE_API_PARSE_CACHE=off run the parser', async () => {
    const { file, text } = uniqueSpec();
    verdictSlot(text)!.write([plant]);
    expect(planted((await loadSpec(file)).notes)).toBe(true);
    expect(planted((await loadSpec(file, { parseCache: false })).notes)).toBe(false);
    process.env.EXCHANGE_API_PARSE_CACHE = 'off';
    expect(verdictSlot(text)).toBeNull();
    expect(planted((await loadSpec(file)).notes)).toBe(false);
  });

  it('another text has a verdict of its own; the same text as another file reads the same verdict', async () => {
    const { text } = uniqueSpec();
    verdictSlot(text)!.write([plant]);
    const edited = writeSpec(text.replace('version: 0.0.1', 'version: 0.0.2'));
    expect(planted((await loadSpec(edited)).notes)).toBe(false);
    const moved = writeSpec(text);
    expect(planted((await loadSpec(moved)).notes)).toBe(true);
  });

  it('a text with a $ref to another file keeps no verdict (that file may change under the same text)', () => {
    const text = miniSpec(`channels:\n  a:\n    $ref: './other.yaml#/a'\n`);
    expect(verdictSlot(text)).toBeNull();
    expect(verdictSlot(miniSpec(`channels:\n  a:\n    $ref: '#/components/channels/a'\n`))).not.toBeNull();
  });

  it('a damaged or foreign verdict file is a miss, and the parser runs', async () => {
    const { file, text } = uniqueSpec();
    const slot = verdictSlot(text)!;
    writeFileSync(slot.file!, '{"format": "exchange-api parser verdict 1", "diagnostics": [');
    expect(slot.read()).toBeNull();
    writeFileSync(slot.file!, JSON.stringify({ format: 'another tool', diagnostics: [plant] }));
    expect(slot.read()).toBeNull();
    expect(planted((await loadSpec(file)).notes)).toBe(false);
  });

  it('a verdict whose diagnostics are not of the parser’s form is a miss: its messages are never read', () => {
    const { text } = uniqueSpec();
    const slot = verdictSlot(text)!;
    const format = 'exchange-api parser verdict 1';
    for (const odd of [
      { ...plant, message: { toString: 'x' } },
      { ...plant, message: 42 },
      { ...plant, path: 'info' },
      { ...plant, severity: 'error' },
      { ...plant, range: { start: null } },
      null,
    ]) {
      writeFileSync(slot.file!, JSON.stringify({ format, diagnostics: [plant, odd] }));
      expect(slot.read(), JSON.stringify(odd)).toBeNull();
    }
    writeFileSync(
      slot.file!,
      JSON.stringify({ format, diagnostics: [plant, { ...plant, range: { start: { line: 3 } } }] }),
    );
    expect(slot.read()).toHaveLength(2);
  });

  it('loads of one text at once wait for one parse; a failed parse is shared, never kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    const text = uniqueSpec().text;
    let parses = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const parse = async () => {
      parses++;
      await gate;
      return [plant];
    };
    const both = Promise.all([verdictSlot(text, dir)!.settle(parse), verdictSlot(text, dir)!.settle(parse)]);
    release();
    expect(await both).toEqual([[plant], [plant]]);
    expect(parses).toBe(1);
    expect(await verdictSlot(text, dir)!.settle(parse)).toEqual([plant]);
    expect(parses).toBe(1);
    const other = `${text}# another text\n`;
    const failing = async () => {
      parses++;
      throw new Error('parser failed');
    };
    const failed = [verdictSlot(other, dir)!.settle(failing), verdictSlot(other, dir)!.settle(failing)];
    for (const f of failed) await expect(f).rejects.toThrow('parser failed');
    expect(parses).toBe(2);
    expect(verdictSlot(other, dir)!.read()).toBeNull();
    expect(await verdictSlot(other, dir)!.settle(parse)).toEqual([plant]);
    expect(parses).toBe(3);
    rmSync(dir, { recursive: true });
  });

  it('keeps at most 200 verdict files, dropping the oldest, and never a file it did not write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parse-cache-'));
    const foreign = join(dir, 'notes-of-someone-else.txt');
    writeFileSync(foreign, 'mine');
    const slots = Array.from({ length: 210 }, (_, i) => verdictSlot(`a: ${i}`, dir)!);
    for (const slot of slots) slot.write([]);
    const ours = readdirSync(dir).filter((f) => /^[0-9a-f]{64}\.json$/.test(f));
    expect(ours).toHaveLength(200);
    // The newest is kept.
    expect(existsSync(slots.at(-1)!.file!)).toBe(true);
    expect(readFileSync(foreign, 'utf8')).toBe('mine');
    rmSync(dir, { recursive: true });
  });
});
