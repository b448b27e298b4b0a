/**
 * Real AsyncAPI 3.0 documents nobody here wrote (fixtures/real/, with their licence), each showing
 * one finding of issue 23: a schema naming no type typed narrower than its validator (18), a
 * `multipleOf: 0.01` refusing valid prices (19), one invalid example blocking a whole SDK (20), a
 * reply of several messages cut to its first (21), a channel's stream carrying what the client sends
 * (22), and the server's side misread from a tie (25).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emitTypes, emitValidators, generateInto, loadSpec, SpecError, type ApiModel } from '../src/index';
import { modelOfSpec } from '../src/model/checked-model';
import { DefaultsLog, viewOf } from '../src/model/plain-spec';
import { formatsIn, schemaAjv } from '../src/model/schema-ajv';
import { tsName } from '../src/model/naming';
import type { SpecProblem } from '../src/load/spec-error';
import { miniSpec, scratchDir, typecheck, writeSpec } from './helpers';
import { runMain } from '../../../test/support/run-main';

const real = join(import.meta.dirname, 'fixtures', 'real');
const KRAKEN = join(real, 'asyncapi-spec', 'kraken-websocket-request-reply-message-filter-in-reply-asyncapi.yaml');
const SLACK_RTM = join(real, 'asyncapi-spec', 'slack-rtm-asyncapi.yaml');
const SLACK_SOCKET = join(real, 'asyncapi-generator', 'asyncapi-slack-client.yaml');
const NOT = join(real, 'asyncapi-spec', 'not-asyncapi.yaml');
const SOCIAL = ['backend', 'comments-service', 'frontend', 'notification-service', 'public-api'].map((d) =>
  join(real, 'asyncapi-spec', 'social-media', d, 'asyncapi.yaml'),
);

/** The model of a document with its examples that do not fit as warnings (as `generate` builds it). */
async function lenientModel(file: string): Promise<{ model: ApiModel; warnings: SpecProblem[] }> {
  const warnings: SpecProblem[] = [];
  return { model: modelOfSpec(await loadSpec(file), { warnings }), warnings };
}

/** A validator of `schema` among the model's named schemas, set up as the SDK's validators are. */
function validatorOf(model: ApiModel, schema: object) {
  const definitions = { ...model.schemas, __payload: schema };
  const ajv = schemaAjv({ formats: formatsIn(...Object.values(definitions)) });
  ajv.addSchema({ $id: 'api', definitions });
  return ajv.getSchema('api#/definitions/__payload')!;
}

describe('18: a schema that names no type is unknown, never an object type', () => {
  /** A value the validator accepts for each property these documents give no type of its own. */
  const VALUES: Record<string, unknown> = { commentId: 'c1', likedBy: 'u1', likeCount: 3, key: 'x' };

  it('the five social-media documents (12 properties) and the not example: valid values compile', async () => {
    const dir = scratchDir('real-untyped-');
    let untyped = 0;
    for (const [i, file] of [...SOCIAL, NOT].entries()) {
      const { model } = await lenientModel(file);
      const [types] = await emitTypes(model);
      writeFileSync(join(dir, `types${i}.gen.ts`), types!.content);
      const lines = [`import type * as T from './types${i}.gen';`];
      for (const t of model.types.filter((x) => x.kind === 'record')) {
        const raw = model.schemas[t.name]!.properties as Record<string, Record<string, unknown>>;
        untyped += Object.values(raw).filter((p) => Array.isArray(p.allOf) || p.not !== undefined).length;
        const value = Object.fromEntries(t.fields!.map((f) => [f.name, VALUES[f.name]]));
        // The validator accepts it, so the type must too.
        expect(validatorOf(model, { $ref: `#/definitions/${t.name}` })(value), `${file} ${t.name}`).toBe(true);
        lines.push(`export const v${lines.length}: T.${tsName(t.name)} = ${JSON.stringify(value)};`);
      }
      writeFileSync(join(dir, `use${i}.ts`), lines.join('\n') + '\n');
    }
    expect(untyped).toBe(12 + 1);
    const checked = typecheck(dir);
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  }, 120_000);

  it('an allOf part that only describes adds no type (its description moves up), and `not` is unknown', async () => {
    const [types] = await emitTypes((await lenientModel(SOCIAL[1]!)).model);
    expect(types!.content).not.toMatch(/\[k: string\]: unknown/);
    expect(types!.content).toMatch(/Id of the comment that was liked\s*\*\/\s*commentId\?: CommentId;/);
    const [not] = await emitTypes((await lenientModel(NOT)).model);
    expect(not!.content).toMatch(/^ {2}key\?: unknown;$/m);
  });
});

describe('19: multipleOf 0.01 takes every two-decimal price', () => {
  it('none of the 100,000 prices from 0.01 to 1000.00 is refused; 0.015 and 0.001 still are', () => {
    const validate = schemaAjv().compile({ type: 'number', multipleOf: 0.01 });
    const refused: number[] = [];
    for (let cents = 1; cents <= 100_000; cents++) if (!validate(cents / 100)) refused.push(cents / 100);
    expect(refused).toEqual([]);
    expect([0.015, 0.001, 1000.005].map((v) => validate(v))).toEqual([false, false, false]);
  });

  it("a spec whose examples are 0.07 and 1.15 generates, and the SDK's standalone validator takes them", async () => {
    const spec = writeSpec(
      miniSpec(`channels:
  prices: { address: prices, messages: { Price: { $ref: '#/components/messages/Price' } } }
components:
  messages:
    Price: { payload: { $ref: '#/components/schemas/Price' }, examples: [{ payload: { price: 0.07 } }] }
  schemas:
    Price:
      type: object
      properties: { price: { type: number, multipleOf: 0.01, examples: [1.15] } }`),
    );
    const { model, warnings } = await lenientModel(spec);
    expect(warnings).toEqual([]);
    const dir = scratchDir('real-multiple-of-');
    const js = emitValidators(model, { typesImport: './types.gen' }).find((f) => f.path === 'validators.gen.js')!;
    writeFileSync(join(dir, 'validators.gen.js'), js.content);
    const v = (await import(pathToFileURL(join(dir, 'validators.gen.js')).href)) as Record<
      string,
      (x: unknown) => boolean
    >;
    expect([0.07, 1.15, 999.99, 0.015].map((price) => v.schema_Price!({ price }))).toEqual([true, true, true, false]);
  });
});

describe("20: an example that does not fit is a warning for someone else's spec", () => {
  it(
    'both Kraken examples and the three Slack Socket Mode ones: warned with file, ' +
      'line and pointer; the SDK is written',
    async () => {
      for (const [file, count, pointer] of [
        [KRAKEN, 2, '#/components/messages/subscriptionStatus/examples/0/payload'],
        [SLACK_SOCKET, 3, '#/components/messages/event/examples/0/payload'],
      ] as const) {
        const out = scratchDir('real-warned-');
        const result = await generateInto(file, out, { check: false });
        const warned = result.notes.filter((n) => n.startsWith('warning: '));
        expect(warned, file).toHaveLength(count);
        expect(warned[0]).toMatch(/^warning: \S+\.yaml:\d+ /);
        expect(warned[0]).toContain(`${pointer}: example does not fit its schema`);
        expect(readFileSync(join(out, 'src', 'validators.gen.js'), 'utf8')).toContain('export const');
      }
    },
    120_000,
  );

  it('--strict-examples (and generateInto strictExamples) refuses them, exit 2, each failure named', async () => {
    await expect(
      generateInto(KRAKEN, scratchDir('real-strict-'), { check: false, strictExamples: true }),
    ).rejects.toThrow(SpecError);
    const warned = await runMain(['generate', '--spec', SLACK_SOCKET, '--out', scratchDir('real-cli-')]);
    expect(warned.status).toBe(0);
    expect(warned.stderr.split('\n').filter((l) => l.startsWith('warning: '))).toHaveLength(3);
    const strict = await runMain([
      'generate',
      '--spec',
      SLACK_SOCKET,
      '--out',
      scratchDir('real-cli-'),
      '--strict-examples',
    ]);
    expect(strict.status).toBe(2);
    expect(strict.stderr).toMatch(
      new RegExp(
        /error: \S+asyncapi-slack-client\.yaml:116 /.source +
          /#\/components\/messages\/event\/examples\/0\/payload: example is not valid/.source,
      ),
    );
  }, 120_000);

  it("this repository's own spec stays strict: the spec/asyncapi.yaml of a clone", async () => {
    const clone = scratchDir('real-clone-');
    mkdirSync(join(clone, 'spec'));
    mkdirSync(join(clone, 'packages', 'types'), { recursive: true });
    writeFileSync(join(clone, 'spec', 'asyncapi.yaml'), readFileSync(KRAKEN, 'utf8'));
    const refused = generateInto(join(clone, 'spec', 'asyncapi.yaml'), join(clone, 'sdk'), { check: false });
    await expect(refused).rejects.toThrow(/example is not valid/);
  }, 60_000);
});

describe('21 and 22: what each operation says it carries', () => {
  it("21: Kraken's reply of two messages is their union, in the type and the validator", async () => {
    const { model } = await lenientModel(KRAKEN);
    const method = model.methods.find((m) => m.name === 'receiveSubscribeRequest')!;
    const dummy = { event: 'currencyInfo', reqid: 42, data: { rate: 1 } };
    expect(validatorOf(model, method.result.schema)(dummy)).toBe(true);
    const status = { event: 'subscriptionStatus', errorMessage: 'Subscription depth not supported' };
    expect(validatorOf(model, method.result.schema)(status)).toBe(true);
    const dir = scratchDir('real-reply-');
    for (const f of await emitTypes(model)) writeFileSync(join(dir, f.path), f.content);
    writeFileSync(
      join(dir, 'use.ts'),
      `import type { Methods } from './methods.gen';\nexport const r: Methods['receiveSubscribeRequest']['result'] ` +
        `= ${JSON.stringify(dummy)};\n`,
    );
    expect(typecheck(dir).output).toBe('');
  }, 120_000);

  it("22: a channel's stream carries the messages of its receive operations: Kraken's refuses a ping", async () => {
    const { model } = await lenientModel(KRAKEN);
    const channel = model.channels.find((c) => c.id === 'currencyExchange')!;
    expect(channel.messages?.map((m) => m.id)).toEqual(['heartbeat', 'systemStatus']);
    const pushed = validatorOf(model, channel.payload.schema);
    expect(pushed({ event: 'ping', reqid: 42 })).toBe(false);
    expect(pushed({ event: 'heartbeat' })).toBe(true);
  });

  it("22: Slack Socket Mode's stream leaves out the acknowledge the client sends", async () => {
    const { model } = await lenientModel(SLACK_SOCKET);
    expect(model.channels.map((c) => c.messages?.map((m) => m.id))).toEqual([['hello', 'event', 'disconnect']]);
  });
});

describe("25: the server's side read from a tie", () => {
  it(
    "Slack RTM (one receive, one send of 46 events) is written from the server's " +
      'side: its stream is the 46 events',
    async () => {
      const { model } = await lenientModel(SLACK_RTM);
      expect(model.defaults.find((d) => d.kind === 'serverView')?.places).toEqual([
        '1 of 2 operations, a tie: 46 of 47 one-way messages sent',
      ]);
      const ids = model.channels[0]?.messages?.map((m) => m.id);
      expect(ids).toHaveLength(46);
      expect(ids).not.toContain('outgoingMessage');
    },
  );

  it('a tie of operations and of messages still reads as the client', () => {
    const op = (action: 'send' | 'receive', n: number) => ({
      action,
      channel: { $ref: '#/channels/c' },
      messages: Array.from({ length: n }, (_, i) => ({ $ref: `#/channels/c/messages/m${i}` })),
    });
    const view = (ops: object[]) =>
      viewOf(Object.fromEntries(ops.map((o, i) => [`o${i}`, o])) as never, undefined, new DefaultsLog());
    expect(view([op('receive', 1), op('send', 1)])).toBe('client');
    expect(view([op('receive', 1), op('send', 46)])).toBe('server');
    expect(view([op('receive', 46), op('send', 1)])).toBe('client');
  });
});
