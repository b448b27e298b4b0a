/**
 * `generate --lang python,go` for specs issue 23 found the models broken by (items 10, 23, 24): the
 * Python module imported by python3 (fixtures/lang/roundtrip.py) and checked by mypy --strict, the Go
 * package vetted and run (fixtures/lang/roundtrip.go), each round-tripping the cases named here.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateInto, modelFromSpec, parseLanguages } from '../src/index';
import { casesJson, exampleCases, type RoundTripCase } from './lang-cases';
import { miniSpec, repoRoot, scratchDir, writeSpec } from './helpers';
import { goIn, mypyStrict, needs, pythonRoundTrip, report, requireTools } from './toolchains';

const thing = (body: string) =>
  miniSpec(`channels:
  things:
    address: things
    messages:
      thing:
        payload: { $ref: '#/components/schemas/Thing' }
${body}
operations:
  onThings: { action: receive, channel: { $ref: '#/channels/things' } }`);

/** Properties named like the fields, methods and class-body names the models add (item 10). */
const OWN = ['json_extra', 'json_nulls', 'JSONExtra', 'JSONNulls', 'to_dict', 'from_dict', 'frozenset'];
const OWN_TOO = ['staticmethod', 'dataclass_field', 'marshal', 'MarshalJSON', 'UnmarshalJSON'];
const ownValues = [...OWN, ...OWN_TOO].map((k, i) => `${k}: ${k === 'json_nulls' ? i : `v${i}`}`);
const ownTypes = [...OWN, ...OWN_TOO].map(
  (k) => `${k}: { type: ${k === 'json_nulls' ? 'integer' : "[string, 'null']"} }`,
);
const OWN_NAMES = thing(`        examples:
          - payload: { ${ownValues.join(', ')}, undeclared: [1] }
          - payload: { json_extra: null, json_nulls: 3 }
components:
  schemas:
    Thing:
      type: object
      properties:
${ownTypes.map((t) => `        ${t}`).join('\n')}`);

/** A string enum (one value a Go literal must escape) and integer enums, named, inline and nullable (item 24). */
const ENUMS = thing(`        examples:
          - payload: { kind: audio, level: 30, inline: -5 }
          - payload: { kind: 'we"ird\\\\', level: 1 }
components:
  schemas:
    Kind: { type: string, enum: [audio, image, 'we"ird\\\\'] }
    Level: { type: integer, enum: [1, 2, 30] }
    Maybe: { type: [integer, 'null'], enum: [7, null] }
    Thing:
      type: object
      required: [kind, level]
      properties:
        kind: { $ref: '#/components/schemas/Kind' }
        level: { $ref: '#/components/schemas/Level' }
        inline: { type: integer, enum: [0, -5] }`);

/** Values outside the enums: every one must be refused, in Python and in Go. */
const OUTSIDE: RoundTripCase[] = [
  { where: 'kind video', type: 'Thing', array: false, value: { kind: 'video', level: 1 } },
  { where: 'level 5', type: 'Thing', array: false, value: { kind: 'audio', level: 5 } },
  { where: 'inline 7', type: 'Thing', array: false, value: { kind: 'audio', level: 1, inline: 7 } },
  { where: 'a Kind alone', type: 'Kind', array: false, value: 'video' },
  { where: 'a Level alone', type: 'Level', array: false, value: 3 },
  { where: 'a nullable one alone', type: 'Maybe', array: false, value: 9 },
];

/** AsyncAPI's Postman echo example, its message without a payload: no named schema at all (item 23). */
const NO_SCHEMAS = miniSpec(`servers:
  echoServer: { host: ws.postman-echo.com, pathname: /raw, protocol: wss }
channels:
  echo:
    address: /
    messages:
      echo: { $ref: '#/components/messages/echo' }
operations:
  sendEchoMessage: { action: send, channel: { $ref: '#/channels/echo' } }
  receiveEchoMessage: { action: receive, channel: { $ref: '#/channels/echo' } }
components:
  messages:
    echo: { name: echo, summary: Any text. }`);

const made = new Map<string, Promise<string>>();
/** The folder of the models generated for `text`, once per spec; cases.json holds its examples. */
function generated(text: string): Promise<string> {
  const once = async () => {
    const spec = writeSpec(text);
    const dir = scratchDir('lang-spec-');
    await generateInto(spec, dir, { check: false, cwd: repoRoot, languages: parseLanguages(['python,go']) });
    writeFileSync(join(dir, 'cases.json'), casesJson(exampleCases(await modelFromSpec(spec))));
    writeFileSync(join(dir, 'outside.json'), casesJson(OUTSIDE));
    return dir;
  };
  if (!made.has(text)) made.set(text, once());
  return made.get(text)!;
}

const cache = scratchDir('lang-spec-go-');
const typed = needs('python3', 'mypy');
const golang = needs('go');

describe.skipIf(typed.skip)(`Python models of other specs${typed.why}`, () => {
  it(
    'item 10: properties named json_extra, JSONExtra, to_dict, frozenset, … keep ' +
      'their values beside the kept keys; the module imports and passes mypy --strict',
    async () => {
      requireTools(typed.missing);
      const dir = await generated(OWN_NAMES);
      const r = pythonRoundTrip(dir, 'cases.json');
      expect(r.status, r.stderr).toBe(0);
      expect(report(r.stdout)).toEqual({ checked: 2, failures: [] });
      expect(mypyStrict(dir, cache).stdout).toMatch(/^Success: no issues found in 1 source file/m);
    },
    120_000,
  );

  it('item 23: a spec with no named schema gives a module python3 imports and mypy --strict accepts', async () => {
    requireTools(typed.missing);
    const dir = await generated(NO_SCHEMAS);
    const r = pythonRoundTrip(dir, 'cases.json');
    expect(r.status, r.stderr).toBe(0);
    expect(report(r.stdout)).toEqual({ checked: 0, failures: [] });
    expect(mypyStrict(dir, cache).stdout).toMatch(/^Success: no issues found in 1 source file/m);
  }, 120_000);

  it(
    'item 24: integer enums stay enums (IntEnum), every value outside an enum ' + 'raises, the examples round-trip',
    async () => {
      requireTools(typed.missing);
      const dir = await generated(ENUMS);
      const text = readFileSync(join(dir, 'python', 'models.py'), 'utf8');
      expect(text).toContain('class Level(IntEnum):\n    VALUE_1 = 1\n    VALUE_2 = 2\n    VALUE_30 = 30\n');
      expect(text).toMatch(/^ {4}level: Level$/m);
      expect(report(pythonRoundTrip(dir, 'cases.json').stdout)).toEqual({ checked: 2, failures: [] });
      const outside = report(pythonRoundTrip(dir, 'outside.json').stdout);
      expect(outside.failures.map((f) => f.split(':')[0])).toEqual(OUTSIDE.map((c) => c.where));
      // A record's key raises ValueError; an optional one goes through from_union, which asserts.
      expect(outside.failures.filter((f) => !/: (ValueError|AssertionError) /.test(f))).toEqual([]);
      expect(mypyStrict(dir, cache).stdout).toMatch(/^Success: no issues found in 1 source file/m);
    },
    120_000,
  );
});

describe.skipIf(golang.skip)(`Go models of other specs${golang.why}`, () => {
  it(
    'item 10: properties named JSONExtra, JSONNulls, marshal, MarshalJSON, … ' +
      'are fields of their own: go vet is clean and the examples round-trip',
    async () => {
      requireTools(golang.missing);
      const dir = await generated(OWN_NAMES);
      const vet = goIn(dir, cache, ['vet', './...']);
      expect(vet.stdout + vet.stderr).toBe('');
      expect(report(goIn(dir, cache, ['run', '.', join(dir, 'cases.json')]).stdout)).toEqual({
        checked: 2,
        failures: [],
      });
    },
    370_000,
  );

  it('item 23: a spec with no named schema gives a package go vet accepts', async () => {
    requireTools(golang.missing);
    const dir = await generated(NO_SCHEMAS);
    const vet = goIn(dir, cache, ['vet', './...']);
    expect(vet.stdout + vet.stderr).toBe('');
    expect(vet.status).toBe(0);
  }, 370_000);

  it(
    'item 24: decoding refuses a value outside an enum (string and integer, named ' +
      'and inline); integer enums are typed constants',
    async () => {
      requireTools(golang.missing);
      const dir = await generated(ENUMS);
      const text = readFileSync(join(dir, 'go', 'models.go'), 'utf8');
      expect(text).toMatch(/^type Level int64\n\nconst \(\n\tValue1 Level = 1\n/m);
      expect(text).toMatch(/^\tLevel +Level +`json:"level"`$/m);
      const vet = goIn(dir, cache, ['vet', './...']);
      expect(vet.stdout + vet.stderr).toBe('');
      expect(report(goIn(dir, cache, ['run', '.', join(dir, 'cases.json')]).stdout)).toEqual({
        checked: 2,
        failures: [],
      });
      const outside = report(goIn(dir, cache, ['run', '.', join(dir, 'outside.json')]).stdout).failures;
      expect(outside).toEqual([
        'kind video: "video" is not a value of Kind',
        'level 5: 5 is not a value of Level',
        expect.stringMatching(/^inline 7: 7 is not a value of \w+$/),
        'a Kind alone: "video" is not a value of Kind',
        'a Level alone: 3 is not a value of Level',
        expect.stringMatching(/^a nullable one alone: 9 is not a value of \w+$/),
      ]);
    },
    370_000,
  );
});
