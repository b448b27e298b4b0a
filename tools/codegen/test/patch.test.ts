/**
 * Patches to another generator's output (src/emit/patch.ts) fail loudly when they find nothing, and
 * generation over our spec and the fixtures, which patch quicktype's and json-schema-to-typescript's
 * output everywhere, still works.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { emitLanguages, emitTypes, LANGUAGES, modelFromSpec } from '../src/index';
import { patch, PatchFailed } from '../src/emit/patch';
import { ourSpec, repoRoot, writeSpec, miniSpec } from './helpers';

const site = { emitter: 'python (quicktype)', what: 'type from_union' };

describe('patch', () => {
  it('replaces what it finds, as String.replace does (every match of a global pattern)', () => {
    expect(patch('def from_union(fs, x):', 'def from_union(fs, x):', 'def from_union(fs: Any, x: Any):', site)).toBe(
      'def from_union(fs: Any, x: Any):',
    );
    expect(patch('a: dict, b: dict', /dict/g, 'Dict', site)).toBe('a: Dict, b: Dict');
    expect(patch('int64 x', /(int)64/, (_, t: string) => `u${t}64`, site)).toBe('uint64 x');
  });

  it('throws PatchFailed naming the emitter, the patch and the pattern when it finds nothing', () => {
    const call = () => patch('def from_union(fs, x) -> Any:', 'def from_union(fs, x):', '', site);
    expect(call).toThrow(PatchFailed);
    expect(call).toThrow(
      'the python (quicktype) emitter could not type from_union: "def from_union(fs, ' +
        'x):" matched nothing in the generated output',
    );
    expect(() => patch('text', /^except:$/m, '', site)).toThrow('/^except:$/m matched nothing');
  });

  it('leaves text without its `when` as it is, and throws for text with it that the pattern misses', () => {
    const when = { ...site, when: 'def from_union(' };
    expect(patch('no unions here', 'def from_union(fs, x):', 'typed', when)).toBe('no unions here');
    expect(() => patch('def from_union(fs, x, y):', 'def from_union(fs, x):', 'typed', when)).toThrow(PatchFailed);
    // A global pattern's lastIndex does not carry from the check into the replace.
    const global = /x/g;
    expect(patch('x x', global, 'y', { ...site, when: global })).toBe('y y');
  });
});

describe('generation through the patches', () => {
  it('our spec and the fixtures give Python and Go models, every patch finding what it patches', async () => {
    const specs = [
      ourSpec,
      join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'parcels.asyncapi.yaml'),
      join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'library.asyncapi.yaml'),
      join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'lang', 'names.asyncapi.yaml'),
    ];
    for (const spec of specs) {
      const files = await emitLanguages(await modelFromSpec(spec, repoRoot), LANGUAGES);
      expect(files.map((f) => f.path)).toEqual(['python/models.py', 'go/models.go']);
      expect(files[0]!.content).toContain('CONVERTERS: Dict[str, Tuple[');
      expect(files[1]!.content).toContain('func RoundTrip(schema string, data []byte)');
    }
  }, 120_000);

  it(
    "a deprecated record's type keeps @deprecated and loses json-schema-to-typescript's " + 'note naming the root',
    async () => {
      const spec = writeSpec(
        miniSpec(`channels:
  things:
    address: things
    messages:
      Thing: { payload: { $ref: '#/components/schemas/Thing' } }
operations:
  onThings: { action: receive, channel: { $ref: '#/channels/things' } }
components:
  schemas:
    Thing: { type: object, deprecated: true, properties: { a: { type: string } } }`),
      );
      const types = (await emitTypes(await modelFromSpec(spec))).find((f) => f.path === 'types.gen.ts')!.content;
      expect(types).toContain('/**\n * @deprecated\n */\nexport interface Thing {');
      expect(types).not.toContain('__ExchangeApiRoot');
    },
  );
});
