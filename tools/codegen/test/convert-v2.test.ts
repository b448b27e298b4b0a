/**
 * AsyncAPI 2.x in, 3.0.0 read (load/convert-v2.ts): a real 2.6.0 document (Gemini, from asyncapi/spec
 * tag v2.6.0; test/sdk/fixtures/public/README.md) is converted in process and a line says so, with the
 * converter's own reports as notes; diff works on the converted document; a 3.1.0 document is read as
 * it is; a 2.x version the converter does not know is one error at #/asyncapi.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffSpecFiles, loadSpec, modelFromSpec, SpecError } from '../src/index';
import { repoRoot, writeSpec } from './helpers';

const gemini2 = join(repoRoot, 'test', 'sdk', 'fixtures', 'public', 'gemini-2.6.asyncapi.yaml');

describe('an AsyncAPI 2.x document', () => {
  it('is converted to 3.0.0, a line saying so and what the converter dropped', async () => {
    const lines: string[] = [];
    const spec = await loadSpec(gemini2, { onConverted: (l) => lines.push(...l) });
    expect(spec.conversion).toMatchObject({ from: '2.6.0', to: '3.0.0' });
    expect(spec.data.asyncapi).toBe('3.0.0');
    expect(lines[0]).toBe(
      `converted AsyncAPI 2.6.0 to 3.0.0 (${gemini2}); places in it are named in the converted document`,
    );
    // The parameter's schema keeps its enum; the converter says it drops `type: string`.
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}the converter noted: Found properties in parameter schema .*schema\.type/),
    ]);
    // Places the conversion keeps still have their line in the file (a node's line is where its value starts).
    const text = readFileSync(gemini2, 'utf8').split('\n');
    expect(spec.source.lineOf(['components', 'schemas', 'market'])).toBe(text.indexOf('    market:') + 2);
    // Others are named by their pointer in the converted document only.
    expect(spec.source.lineOf(['operations'])).toBeUndefined();
  });

  it('gives the model a channel at its address and the operation the converter named', async () => {
    const model = await modelFromSpec(gemini2);
    expect(model.wire?.operations.map((o) => [o.id, o.action, o.channel])).toEqual([
      ['/v1/marketdata/{symbol}.subscribe', 'receive', '/v1/marketdata/{symbol}'],
    ]);
    expect(model.wire?.channels[0]).toMatchObject({ address: '/v1/marketdata/{symbol}', parameters: ['symbol'] });
  });

  it('diffs as its conversion: against itself, no change', async () => {
    const d = await diffSpecFiles(gemini2, gemini2);
    expect(d.changes).toEqual([]);
    expect(d.before.title).toBe('Gemini Market Data Websocket API');
  });

  it('of a version the converter does not know is one error at #/asyncapi', async () => {
    const spec = writeSpec("asyncapi: 2.9.0\ninfo: { title: Later, version: '1' }\nchannels: {}\n");
    const err = await loadSpec(spec, { onConverted: () => undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    const problems = (err as SpecError).problems;
    expect(problems.map((p) => [p.pointer, p.line])).toEqual([['#/asyncapi', 1]]);
    expect(problems[0]!.message).toMatch(/^@asyncapi\/converter could not convert it: Cannot convert from 2\.9\.0/);
  });
});

describe('an AsyncAPI 3.1.0 document', () => {
  it('is read as it is, with no conversion', async () => {
    const spec = writeSpec(
      [
        'asyncapi: 3.1.0',
        "info: { title: Echo, version: '1' }",
        'servers: { local: { host: localhost, protocol: ws } }',
        'channels:',
        '  echo:',
        '    address: /echo',
        '    messages: { text: { payload: { type: string } } }',
        'operations:',
        '  sendText: { action: send, channel: { $ref: "#/channels/echo" } }',
        '',
      ].join('\n'),
    );
    const lines: string[] = [];
    const loaded = await loadSpec(spec, { onConverted: (l) => lines.push(...l) });
    expect([loaded.conversion, lines, loaded.data.asyncapi]).toEqual([undefined, [], '3.1.0']);
    const model = await modelFromSpec(spec);
    expect(model.wire?.operations.map((o) => o.id)).toEqual(['sendText']);
  });
});
