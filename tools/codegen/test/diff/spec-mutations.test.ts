/**
 * Twenty realistic edits of our own spec, each classified as the diff should, and the proof that the
 * classes mean what they say for SDK users: the types regenerated from the edited spec stop compiling
 * a consumer (fixtures/consumer.ts) exactly when the client side is breaking at the type level (a
 * change that names generated TypeScript names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { diffModels, emitTypes, type ApiModel, type Change, type Severity } from '../../src/index';
import { modelOfJson, type Spec } from './base-spec';
import { withoutExamples } from '../../../../test/support/spec-edits';

const ownText = readFileSync(new URL('../../../../spec/asyncapi.yaml', import.meta.url), 'utf8');
/**
 * Our spec without its examples: a real edit updates the examples too, and examples change nothing the
 * diff compares, so the mutations need not rewrite them to stay valid.
 */
const ownParsed: Spec = withoutExamples(parse(ownText));
/** A fresh copy to edit (parsed once: a parse of our spec costs a third of a second). */
const own = (): Spec => structuredClone(ownParsed);
const consumer = new URL('./fixtures/consumer.ts', import.meta.url);

/** Delete an operation's channel and the operations on it. */
function removeChannel(s: Spec, id: string): void {
  delete s.channels[id];
  for (const [k, o] of Object.entries<Spec>(s.operations))
    if (o.channel?.$ref === `#/channels/${id}`) delete s.operations[k];
}
/** Rename a named schema everywhere it is referenced. */
function renameSchema(s: Spec, from: string, to: string): Spec {
  const text = JSON.stringify(s).split(`"#/components/schemas/${from}"`).join(`"#/components/schemas/${to}"`);
  const out = JSON.parse(text);
  out.components.schemas[to] = { ...out.components.schemas[from], title: to };
  delete out.components.schemas[from];
  return out;
}
const schemas = (s: Spec) => s.components.schemas;
const limit = (s: Spec, id: string) => s['x-limits'].find((l: Spec) => l.id === id);

type Mutation = [what: string, rule: string, client: Severity, server: Severity, edit: (s: Spec) => Spec | void];
const MUTATIONS: Mutation[] = [
  ['remove a channel', 'channel.removed', 'breaking', 'safe', (s) => removeChannel(s, 'trades')],
  [
    'narrow an enumeration both sides use',
    'enum.value-removed',
    'breaking',
    'breaking',
    (s) => {
      schemas(s).OrderType.enum = ['limit'];
    },
  ],
  [
    'make a param required',
    'field.made-required',
    'breaking',
    'safe',
    (s) => {
      schemas(s).GetSubaccountsParams.required.push('timestamp');
    },
  ],
  // Clients send decimals too (order and replace params, through x-assumed-params): the worse of both flows.
  [
    "widen a decimal's precision",
    'constraint.widened',
    'dangerous',
    'breaking',
    (s) => {
      schemas(s).Decimal.pattern = '^-?[0-9]+(\\.[0-9]{1,18})?$';
    },
  ],
  ['rename a record', 'type.removed', 'breaking', 'safe', (s) => renameSchema(s, 'PublicTrade', 'MarketTrade')],
  [
    'change a rate-limit class',
    'method.rate-limit-changed',
    'dangerous',
    'dangerous',
    (s) => {
      s.operations.cancelAll['x-rate-limit-class'] = 'matching';
      delete s.operations.cancelAll['x-rate-limit-budget'];
    },
  ],
  [
    'add a required field to a pushed record',
    'field.added-required',
    'safe',
    'breaking',
    (s) => {
      schemas(s).Order.properties.venue = { type: 'string' };
      schemas(s).Order.required.push('venue');
    },
  ],
  [
    'add a value to an enumeration the server sends',
    'enum.value-added',
    'dangerous',
    'safe',
    (s) => {
      // BalanceUpdateType is only sent (OrderStatus is sent by clients too now: private/get_orders filters by it).
      schemas(s).BalanceUpdateType.enum.push('rebate');
    },
  ],
  [
    'remove a method',
    'method.removed',
    'breaking',
    'safe',
    (s) => {
      delete s.operations.cancelByLabel;
    },
  ],
  [
    'add a method',
    'method.added',
    'safe',
    'breaking',
    (s) => {
      s.operations.publicGetVaultBalances = {
        ...structuredClone(s.operations.publicGetRateLimits),
        'x-method': 'public/get_vault_balances',
        'x-transports': ['ws'],
      };
      delete s.operations.publicGetVaultBalances['x-http-path'];
    },
  ],
  [
    'make a public channel private',
    'channel.made-private',
    'breaking',
    'breaking',
    (s) => {
      s.channels.trades['x-access'] = 'private';
    },
  ],
  [
    'make a pushed field optional',
    'field.made-optional',
    'breaking',
    'safe',
    (s) => {
      schemas(s).Order.required = schemas(s).Order.required.filter((f: string) => f !== 'amount');
    },
  ],
  [
    'make a pushed field nullable',
    'field.made-nullable',
    'breaking',
    'safe',
    (s) => {
      schemas(s).Order.properties.order_id = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    },
  ],
  [
    'remove a pushed field',
    'field.removed',
    'breaking',
    'safe',
    (s) => {
      delete schemas(s).Order.properties.label;
    },
  ],
  [
    'add an optional param',
    'field.added-optional',
    'safe',
    'dangerous',
    (s) => {
      schemas(s).GetSubaccountsParams.properties.include_closed = { type: 'boolean' };
    },
  ],
  [
    "reword an error's message",
    'error.message-changed',
    'dangerous',
    'breaking',
    (s) => {
      s['x-errors'].codes[0].message = 'Too many requests';
    },
  ],
  [
    'tighten a rate limit',
    'limit.tightened',
    'dangerous',
    'breaking',
    (s) => {
      limit(s, 'non_matching').tps = 2;
      limit(s, 'non_matching').points = 10;
    },
  ],
  [
    'stop serving a method over HTTP',
    'method.transport-removed',
    'breaking',
    'safe',
    (s) => {
      s.operations.publicGetRateLimits['x-transports'] = ['ws'];
      delete s.operations.publicGetRateLimits['x-http-path'];
    },
  ],
  [
    'allow a new orderbook depth',
    'channel.parameter-value-added',
    'safe',
    'breaking',
    (s) => {
      s.channels.orderbook.parameters.depth.enum.push('50');
    },
  ],
  [
    'choose otherwise in an assumption',
    'assumption.changed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-assumptions'][0].choice = 'a different frame';
    },
  ],
];

/** A change that breaks clients and names generated TypeScript names: the consumer must stop compiling. */
const typeLevelBreaking = (changes: Change[]) => changes.some((c) => c.client === 'breaking' && c.names.length > 0);

let work: string;
let base: ApiModel;
const results = new Map<number, { changes: Change[]; errors: string[] }>();

// A bound only a hang reaches: the models of every mutation take 76 s on a quiet 2-core machine, and a CI
// run with three test tasks at a time once took more than 120 s here.
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'exchange-api-diff-mutations-'));
  base = modelOfJson(own());
  const roots: string[] = [];
  const changesOf: Change[][] = [];
  // One folder per distinct set of regenerated types (many edits leave them as they were: the same files
  // compile the same), one TypeScript program over them all.
  const folderOf = new Map<string, string>();
  const folders: string[] = [];
  for (const [i, m] of [['unchanged', '', 'safe', 'safe', () => {}] as Mutation, ...MUTATIONS].entries()) {
    const spec = own();
    const model = modelOfJson((m[4](spec) as Spec | undefined) ?? spec);
    changesOf.push(diffModels(base, model));
    const files = await emitTypes(model);
    const key = JSON.stringify(files.map((f) => [f.path, f.content]));
    let dir = folderOf.get(key);
    if (dir === undefined) {
      dir = join(work, String(i));
      mkdirSync(dir);
      for (const f of files) writeFileSync(join(dir, f.path), f.content);
      copyFileSync(consumer, join(dir, 'consumer.ts'));
      roots.push(join(dir, 'consumer.ts'));
      folderOf.set(key, dir);
    }
    folders.push(dir);
  }
  const program = ts.createProgram(roots, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  });
  const errors = ts.getPreEmitDiagnostics(program);
  changesOf.forEach((changes, i) => {
    const mine = errors
      .filter((d) => d.file?.fileName.startsWith(folders[i]! + '/'))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
    results.set(i, { changes, errors: mine });
  });
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('our own spec, mutated twenty ways', () => {
  it('unchanged: no change, and the consumer compiles', () => {
    expect(results.get(0)).toEqual({ changes: [], errors: [] });
  });

  it.each(MUTATIONS.map((m, i) => [m[0], i + 1, m] as const))('%s', (_what, i, [, rule, client, server]) => {
    const { changes, errors } = results.get(i)!;
    const hit = changes.find((c) => c.rule === rule);
    expect(hit, `no ${rule} among ${changes.map((c) => c.rule).join(', ') || 'nothing'}`).toBeDefined();
    expect({ client: hit!.client, server: hit!.server }).toEqual({ client, server });
    // The regenerated types break the consumer exactly when the client side is breaking at the type level.
    expect({ compiles: errors.length === 0, errors }).toMatchObject({ compiles: !typeLevelBreaking(changes) });
  });
});
