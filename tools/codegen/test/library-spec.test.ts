/**
 * Issue 14: any AsyncAPI 3.0 document the parser accepts generates. The library fixture
 * (fixtures/library.asyncapi.yaml, no exchange-api extensions) uses what the AsyncAPI Schema Object
 * offers beyond draft-07 (formats, discriminator, externalDocs, example, deprecated, readOnly, xml,
 * title), multi-format payloads (AsyncAPI, JSON Schema and Avro), a channel with several inline
 * messages, an inline message shared by two operations, an operation id with a dash, a type name that
 * is no identifier (`Tick.v2`) and an mqtt server. What cannot be generated stays an error with file,
 * line and JSON pointer: a schema ajv refuses, an AsyncAPI 4.x document (1.x and 2.x are converted).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emitValidators, generateInto, modelFromSpec, SpecError, type ApiModel } from '../src/index';
import { miniSpec, repoRoot, scratchDir, typecheck, writeSpec } from './helpers';
import { runMain } from '../../../test/support/run-main';

const librarySpec = join(repoRoot, 'tools', 'codegen', 'test', 'fixtures', 'library.asyncapi.yaml');
type Validate = ((d: unknown) => boolean) & { errors?: Array<{ keyword: string; instancePath: string }> | null };

let model: ApiModel;
let out: string;
let notes: string[];

beforeAll(async () => {
  model = await modelFromSpec(librarySpec, repoRoot);
  out = scratchDir('library-');
  notes = (await generateInto(librarySpec, out, { check: false, cwd: repoRoot })).notes;
});

/**
 * One tsc run over the generated sources and a consumer written against them (consumer-check.ts): a
 * run costs seconds, and an error in either names its file.
 */
let checkedOnce: ReturnType<typeof typecheck> | undefined;
function typecheckWithConsumer(): ReturnType<typeof typecheck> {
  if (checkedOnce) return checkedOnce;
  writeFileSync(
    join(out, 'src', 'consumer-check.ts'),
    [
      "import { createClient, channels } from './index';",
      "import type { HoldReadyPayload, HoldCancelledPayload, PayloadOf } from './index';",
      'export async function use(): Promise<string> {',
      "  const client = createClient({ wsUrl: 'wss://lib.example.test:8443/stream' });",
      "  for await (const p of client.stream(channels.holdEvents({ member_id: 'm1' }))) {",
      '    const both: HoldReadyPayload | HoldCancelledPayload = p;',
      "    if ('ready' in both) return both.at;",
      '    return both.reason;',
      '  }',
      "  const r = await client.rpc['reserve-item']({ item_id: 'B', member_id: " +
        "1, pickup: { kind: 'locker', locker_no: 3 } });",
      "  const t: PayloadOf<'ticks'> = { seq: 1 };",
      '  return r.hold_id + String(t.seq);',
      '}',
      '',
    ].join('\n'),
  );
  checkedOnce = typecheck(join(out, 'src'));
  return checkedOnce;
}

describe("the library spec (plain AsyncAPI 3.0 with the Schema Object's extras)", () => {
  it('generates sources that type-check under strict settings, with ajv-formats as a dependency', () => {
    const checked = typecheckWithConsumer();
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['ajv-formats']).toBe('2.1.1');
    expect(readFileSync(join(out, 'src', 'validators.gen.js'), 'utf8')).toMatch(
      /^import __runtime\d+ from "ajv-formats\/dist\/formats\.js";$/m,
    );
  });

  it(
    'types a channel with several messages as the union of their payloads, inline ' +
      'messages named by their keys, a shared one once',
    () => {
      const channels = readFileSync(join(out, 'src', 'channels.gen.ts'), 'utf8');
      expect(channels).toContain('export type HoldEventsChannelPayload = T.HoldReadyPayload | T.HoldCancelledPayload;');
      expect(channels).toContain('export type TicksChannelPayload = T.TickV2;');
      // An Avro payload is not read: open, and noted.
      expect(channels).toContain('export type ShelfSensorsChannelPayload = unknown;');
      const names = model.types.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['HoldReadyPayload', 'HoldCancelledPayload', 'LookupPayload']));
      expect(names.filter((n) => n.startsWith('LookupPayload'))).toEqual(['LookupPayload']);
      expect(model.methods.map((m) => [m.id, m.params.record, m.result.record])).toEqual([
        ['reserve-item', 'Reservation', 'ReservationResult'],
        ['lookup', 'LookupPayload', 'Item'],
        ['lookupAgain', 'LookupPayload', 'Item'],
      ]);
      // The guards are typed by the union too.
      expect(readFileSync(join(out, 'src', 'guards.gen.ts'), 'utf8')).toContain(
        "'holdEvents': v.channel_holdEvents as v.ValidateFunction<T.HoldReadyPayload | T.HoldCancelledPayload>,",
      );
    },
  );

  it('a consumer type-checks: stream(channels.holdEvents(…)) yields the union, narrowed by its fields', () => {
    const checked = typecheckWithConsumer();
    expect(checked.output).toBe('');
  });

  it('validators accept every example and refuse a bad date-time, uuid and date', async () => {
    const v = (await import(pathToFileURL(join(out, 'src', 'validators.gen.js')).href)) as Record<string, Validate>;
    for (const c of model.channels)
      for (const e of c.examples) expect(v[`channel_${c.id}`]!(e), `${c.id} ${JSON.stringify(e)}`).toBe(true);
    for (const m of model.methods) {
      for (const e of m.paramsExamples) expect(v[`params_${m.id.replace(/-/g, '_')}`]!(e), `${m.id} params`).toBe(true);
      for (const e of m.resultExamples) expect(v[`result_${m.id.replace(/-/g, '_')}`]!(e), `${m.id} result`).toBe(true);
    }
    const holds = v.channel_holdEvents!;
    const ready = model.channels.find((c) => c.id === 'holdEvents')!.examples[0] as Record<string, unknown>;
    expect(holds({ ...ready, at: 'yesterday at noon' })).toBe(false);
    expect(holds.errors?.some((e) => e.keyword === 'format' && e.instancePath === '/at')).toBe(true);
    expect(holds({ ...ready, hold_id: 'H1' })).toBe(false);
    expect(
      v.schema_Loan!({
        loan_id: 'L',
        item: { item_id: 'B', title: 'T', format: 'print' },
        due: '2024-13-45',
        fine_cents: null,
        state: 'active',
      }),
    ).toBe(false);
    // An unknown format (isbn) is not checked; an Avro payload takes any value.
    expect(v.schema_Tick_v2!({ seq: 1, isbn: 'not checked' })).toBe(true);
    expect(v.channel_shelfSensors!({ lux: 'any' })).toBe(true);
  });

  it('notes the foreign schema format, the keyword it ignores and the format it does not check, once each', () => {
    expect(notes.filter((n) => n.includes('schema format other than JSON Schema'))).toEqual([
      'note: a payload in a schema format other than JSON Schema or AsyncAPI (Avro, ' +
        'Protobuf, RAML…) is not read: its type is unknown and any value passes its ' +
        'validator (1 place: #/channels/shelfSensors/messages/Reading/payload ' +
        '(application/vnd.apache.avro;version=1.9.0))',
    ]);
    expect(notes.filter((n) => n.includes('keyword'))).toEqual([
      'note: a schema keyword that neither JSON Schema nor AsyncAPI defines is ' +
        'ignored (as JSON Schema says) (1 place: minimun at ' +
        '#/components/schemas/ReservationResult/properties/position/minimun)',
    ]);
    expect(notes.filter((n) => n.includes('format the validators'))).toEqual([
      'note: a string format the validators do not know is not checked (1 place: format isbn)',
    ]);
    // The note of the JSON-RPC conventions says what they are, for a reader without this repository.
    expect(notes.find((n) => n.includes('x-role'))).toMatch(
      /subscribe\/unsubscribe with params \{channels\}.*spec\/README\.md of the exchange-api repository/,
    );
  });

  it(
    "its README calls rpc['reserve-item'], names the generated types, fills server " +
      'variables and says the mqtt server is out of reach',
    () => {
      const readme = readFileSync(join(out, 'README.md'), 'utf8');
      expect(readme).toContain("client.rpc['reserve-item']({");
      expect(readme).toContain("| `reserve-item` | `rpc['reserve-item']` | `Reservation` | `ReservationResult` |");
      expect(readme).not.toContain('rpc.reserve-item');
      expect(readme).toContain('| `ticks` | `TickV2` |');
      expect(readme).toContain('| `holds.{member_id}` | `HoldReadyPayload \\| HoldCancelledPayload` |');
      expect(readme).toContain("wsUrl: 'wss://lib.example.test:8443/stream'");
      expect(readme).toMatch(/cannot connect to `sensors` \(`mqtt:\/\/mqtt\.lib\.example\.test:1883`\)/);
      expect(readme).not.toContain('{port}');
      // No empty doc comment for a method without a summary.
      expect(readFileSync(join(out, 'src', 'methods.gen.ts'), 'utf8')).not.toMatch(/\/\*\*\s*\*\//);
    },
  );
});

/** One schema (as `Thing`) in a spec with one channel carrying it. */
const withSchema = (schema: string, payload = "{ $ref: '#/components/schemas/Thing' }") =>
  miniSpec(`channels:
  things:
    address: things
    messages:
      Thing: { payload: ${payload} }
operations:
  onThings: { action: receive, channel: { $ref: '#/channels/things' } }
components:
  schemas:
    Thing: ${schema}`);

describe('each extra of the AsyncAPI Schema Object generates validators (ajv strict mode refused them before)', () => {
  const cases: Array<[string, string, string?]> = [
    ['format: date-time', '{ type: string, format: date-time }'],
    [
      'format: uuid, email, uri, date',
      '{ type: object, properties: { a: { type: string, format: uuid }, b: { type: ' +
        'string, format: email }, c: { type: string, format: uri }, d: { type: string, ' +
        'format: date } } }',
    ],
    ['an unknown format', '{ type: string, format: money }'],
    ['discriminator', '{ discriminator: kind, type: object, properties: { kind: { type: string } } }'],
    ['externalDocs', "{ type: string, externalDocs: { url: 'https://example.test' } }"],
    ['example', '{ type: string, example: abc }'],
    [
      'deprecated, readOnly, writeOnly, title',
      '{ type: object, title: A thing, deprecated: true, properties: { a: { type: ' +
        'string, readOnly: true }, b: { type: string, writeOnly: true } } }',
    ],
    ['xml', '{ type: string, xml: { name: thing } }'],
    ['an x- key in a schema', '{ type: string, x-internal: yes }'],
    ['an unknown keyword', '{ type: string, minLenght: 3 }'],
    [
      'a multi-format payload (asyncapi+json)',
      '{ type: string }',
      "{ schemaFormat: 'application/vnd.aai.asyncapi+json;version=3.0.0', schema: " +
        "{ $ref: '#/components/schemas/Thing' } }",
    ],
    [
      'a multi-format payload (schema+json draft-07)',
      '{ type: string }',
      "{ schemaFormat: 'application/schema+json;version=draft-07', schema: { type: " +
        'object, properties: { a: { type: string, format: date-time } } } }',
    ],
    [
      'a multi-format payload (asyncapi+yaml)',
      '{ type: string }',
      "{ schemaFormat: 'application/vnd.aai.asyncapi+yaml;version=3.0.0', schema: { type: integer } }",
    ],
  ];
  it.each(cases)('%s', async (_name, schema, payload) => {
    const m = await modelFromSpec(writeSpec(withSchema(schema, payload)));
    const files = emitValidators(m, { typesImport: './types.gen' });
    expect(files.find((f) => f.path === 'validators.gen.js')!.content).toContain('export const channel_things');
  });

  it('a multi-format JSON Schema payload is read as its schema (typed, validated)', async () => {
    const m = await modelFromSpec(
      writeSpec(
        withSchema(
          '{ type: string }',
          "{ schemaFormat: 'application/schema+yaml;version=draft-07', schema: { $ref: " +
            "'#/components/schemas/Thing' } }",
        ),
      ),
    );
    expect(m.channels[0]!.payload.record).toBe('Thing');
  });
});

describe('what cannot be generated is an error with file, line and JSON pointer', () => {
  it('a schema ajv refuses (a pattern that is no regular expression) names the schema', async () => {
    const err = await modelFromSpec(writeSpec(withSchema("{ type: string, pattern: '(unclosed' }"))).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SpecError);
    const [p] = (err as SpecError).problems;
    expect([p!.pointer, p!.line]).toEqual(['#/components/schemas/Thing', 12]);
    expect(p!.message).toMatch(/^the validators cannot use this schema: Invalid regular expression/);
    expect((err as SpecError).problems).toHaveLength(1);
  });

  it('an example that breaks a format is refused at the example', async () => {
    const err = await modelFromSpec(
      writeSpec(withSchema("{ type: string, format: date-time, examples: ['noon'] }")),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).problems.map((p) => [p.pointer, p.message])).toEqual([
      ['#/components/schemas/Thing/examples/0', 'example is not valid: / must match format "date-time"'],
    ]);
  });

  it(
    'an AsyncAPI 2.x document is converted (docs/generating.md); ' + 'a version neither 3.x nor 1.x/2.x is refused',
    async () => {
      const v2 = `asyncapi: 2.6.0
info: { title: Old, version: '1' }
channels:
  news:
    subscribe:
      message: { payload: { type: string } }
`;
      const converted = await modelFromSpec(writeSpec(v2));
      expect(converted.channels.map((c) => c.address)).toEqual(['news']);
      const err = await modelFromSpec(writeSpec(v2.replace('2.6.0', '4.0.0'))).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SpecError);
      const [p] = (err as SpecError).problems;
      expect([p!.pointer, p!.line]).toEqual(['#/asyncapi', 1]);
      expect(p!.message).toBe(
        'this toolkit reads AsyncAPI 3.x documents, and converts 1.x and 2.x ones; this one is AsyncAPI 4.0.0',
      );
    },
  );
});

describe('the command line on a spec from outside this repository', () => {
  it(
    'spec: the summary states the defaults in its notes and lists the open places ' + 'itself (no bare spec/README.md)',
    async () => {
      const r = await runMain(['spec', '--spec', librarySpec]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          /note: no x-role: subscriptions assume the exchange-api JSON-RPC frames /.source +
            /\(methods subscribe\/unsubscribe with params \{channels\}/.source,
        ),
      );
      expect(r.stdout).toMatch(/holds\.\{member_id\}\s+HoldReadyPayload \| HoldCancelledPayload\n/);
      expect(r.stdout).toContain('not shown (0 places):');
      expect(r.stdout).not.toMatch(/see spec\/README\.md/);
    },
  );

  it(
    'generate: an AsyncAPI 4.0.0 document is one error line with file, line and ' + 'pointer, exit 2, no stack trace',
    async () => {
      const spec = writeSpec("asyncapi: 4.0.0\ninfo: { title: Old, version: '1' }\nchannels: {}\n");
      const r = await runMain(['generate', '--spec', spec, '--out', scratchDir('v2-')]);
      expect(r.status).toBe(2);
      const lines = r.stderr
        .replace(/npm warn.*\n/g, '')
        .trim()
        .split('\n');
      expect(lines).toEqual([
        'exchange-api generate: the spec has 1 error(s)',
        expect.stringMatching(
          new RegExp(
            /^error: .*spec\.yaml:1 #\/asyncapi: this toolkit reads AsyncAPI 3\.x documents, /.source +
              /.* this one is AsyncAPI 4\.0\.0$/.source,
          ),
        ),
      ]);
    },
  );
});
