import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadSpec, modelFromSpec, SpecError } from '../src/index';
import { miniSpec, ourSpec, repoRoot, writeSpec } from './helpers';
import { withoutEndpointMap } from './spec-trim';
import { runMain } from '../../../test/support/run-main';

// Cut to what the document shows and the first clients' reads: each case parses it again (spec-trim.ts).
const ours = withoutEndpointMap(readFileSync(ourSpec, 'utf8'));

/** Break our spec in the places `mutate` edits and load it: the problems it is refused with. */
async function problemsOf(mutate: (text: string) => string) {
  const file = writeSpec(mutate(ours), 'broken.asyncapi.yaml');
  try {
    await modelFromSpec(file);
  } catch (err) {
    expect(err).toBeInstanceOf(SpecError);
    return { file, problems: (err as SpecError).problems };
  }
  throw new Error('the broken spec loaded without error');
}

/** One break of our spec: its name, the edit, and the pointer and message of the error it must cause. */
type Break = [name: string, mutate: (text: string) => string, pointer: string, message: RegExp];

/**
 * Each distinct text costs a parse of our spec (seconds of CPU), so breaks checked at the same stage and
 * in different places share one broken copy: every problem of that stage is reported, each at its own
 * place, and any one error refuses the spec. An edit that finds nothing to replace fails its case (no
 * error at its pointer). The three module breaks are made on three methods (order, replace, cancel).
 */
const broken = (breaks: Break[]) => (t: string) => breaks.reduce((text, [, mutate]) => mutate(text), t);
const loads = new Map<Break[], ReturnType<typeof problemsOf>>();
const problemsOfAll = (breaks: Break[]) => {
  if (!loads.has(breaks)) loads.set(breaks, problemsOf(broken(breaks)));
  return loads.get(breaks)!;
};

/** Breaks our conventions' checks find, all before the model is built (the parser runs on the text too). */
const CONVENTIONS: Break[] = [
  [
    'a dangling $ref',
    (t: string) =>
      t.replace(
        "direction: { $ref: '#/components/schemas/Direction' }\n        extra_fee",
        "direction: { $ref: '#/components/schemas/Directoin' }\n        extra_fee",
      ),
    '#/components/schemas/Order/properties/direction/$ref',
    /does not resolve/,
  ],
  [
    'an enum value of the wrong type',
    (t: string) => t.replace('enum: [buy, sell]', 'enum: [buy, 7]'),
    '#/components/schemas/Direction/enum/1',
    /not of the declared type string/,
  ],
  [
    'an unknown extension value',
    (t: string) =>
      t.replace('    x-access: private\n  subaccountBestQuotes', '    x-access: secret\n  subaccountBestQuotes'),
    '#/channels/subaccountBalances/x-access',
    /must be one of public, private \(got "secret"\)/,
  ],
  [
    'an action module x-action-signature does not declare',
    (t: string) =>
      t.replace(
        '    x-method: private/order\n    x-rate-limit-key: order\n    x-action-module: trade',
        '    x-method: private/order\n    x-rate-limit-key: order\n    x-action-module: trades',
      ),
    '#/operations/order/x-action-module',
    /x-action-module names "trades", which is not a module of x-action-signature.modules/,
  ],
  [
    'a layout its action module does not have',
    (t: string) =>
      t.replace(
        '    x-method: private/replace\n    x-rate-limit-key: replace\n    x-action-module: trade',
        '    x-method: private/replace\n    x-rate-limit-key: replace\n    x-action-module: trade\n' +
          '    x-action-data: quote',
      ),
    '#/operations/replace/x-action-data',
    /x-action-data names "quote", which is not a layout of module trade/,
  ],
  [
    'a module of several layouts without the one a method signs',
    (t: string) =>
      t.replace(
        '    x-method: private/cancel\n    x-rate-limit-key: cancel\n',
        '    x-method: private/cancel\n    x-rate-limit-key: cancel\n    x-action-module: rfq\n',
      ),
    '#/operations/cancel/x-action-module',
    /module rfq has several layouts; x-action-data must name one/,
  ],
  [
    'a source other than the document or the clients',
    (t: string) =>
      t.replace(
        '    x-method: public/get_time\n    x-source: clients',
        '    x-method: public/get_time\n    x-source: forum',
      ),
    '#/operations/publicGetTime/x-source',
    /must be one of document, clients \(got "forum"\)/,
  ],
  [
    'a rate-limit class nobody declared',
    (t: string) => t.replace('x-rate-limit-class: endpoint', 'x-rate-limit-class: endpoints'),
    '#/operations/cancelAll/x-rate-limit-class',
    /must be one of non_matching, matching, endpoint, custom/,
  ],
  [
    'an assumption id that does not exist',
    (t: string) => t.replace('x-assumption: notification-frame', 'x-assumption: notification-frames'),
    '#/components/schemas/SubscriptionNotification/x-assumption',
    /not an id in x-assumptions/,
  ],
  [
    'a channel parameter enum that is not strings',
    (t: string) => t.replace("enum: ['1', '10', '100']", 'enum: [1, 10, 100]'),
    '#/channels/orderbook/parameters/group',
    /./,
  ],
  [
    'an error kind outside the vocabulary',
    (t: string) => t.replace('      kind: auth\n', '      kind: login\n'),
    '#/x-errors/codes/7/kind',
    /kind must be one of rate-limit, connection-limit, request, auth, order, server \(got "login"\)/,
  ],
  [
    'an x-role of an operation on a schema',
    (t: string) => t.replace('      x-role: error\n', '      x-role: subscribe\n'),
    '#/components/schemas/RPCError/x-role',
    /x-role "subscribe" belongs on an operation/,
  ],
  [
    'one x-role given to two schemas',
    (t: string) => t.replace('      x-role: request\n', '      x-role: response\n'),
    '#/components/schemas/JsonRpcResponse/x-role',
    /x-role "response" is already given at #\/components\/schemas\/JsonRpcRequest\/x-role/,
  ],
];
/** Breaks found once the model is built, when the examples are checked against it. */
const EXAMPLES: Break[] = [
  [
    "an example's x-address that is not an address of its channel",
    (t: string) =>
      t.replace("      x-address: 'orderbook.ETH-PERP.10.10'", "      x-address: 'orderbook.ETH-PERP.7.10'"),
    '#/channels/orderbook',
    new RegExp(
      /x-address "orderbook\.ETH-PERP\.7\.10" is not an address of /.source +
        /orderbook\.\{instrument_name\}\.\{group\}\.\{depth\}/.source,
    ),
  ],
  [
    'an invalid example',
    (t: string) => t.replace('publish_id: 5120', 'publish_id: -1'),
    '#/components/messages/Orderbook/examples/0/payload',
    /example is not valid/,
  ],
];

describe('our spec', () => {
  it('parses with @asyncapi/parser and our conventions, with no errors and no unexplained warnings', async () => {
    const spec = await loadSpec(ourSpec);
    // The only parser note, "use AsyncAPI 3.1.0", is filtered on purpose (spec/README.md explains 3.0.0).
    expect(spec.notes).toEqual([]);
  });
});

describe('bad spec input names the file and the JSON pointer', () => {
  it.each([...CONVENTIONS.map((c) => [...c, CONVENTIONS] as const), ...EXAMPLES.map((c) => [...c, EXAMPLES] as const)])(
    '%s',
    async (_name, _mutate, pointer, message, breaks) => {
      const { file, problems } = await problemsOfAll(breaks);
      const hit = problems.find((p) => p.pointer.startsWith(pointer) && message.test(p.message));
      expect(hit, JSON.stringify(problems, null, 2)).toBeDefined();
      expect(hit!.file).toContain('broken.asyncapi.yaml');
      expect(hit!.line).toBeGreaterThan(0);
      expect(file).toContain('broken.asyncapi.yaml');
    },
  );

  it(
    'an example that fits no branch of a oneOf: a missing property at the object ' + 'that lacks it, each failure once',
    async () => {
      const file = writeSpec(
        miniSpec(`channels:
  status:
    address: status
    messages:
      Status:
        payload: { $ref: '#/components/schemas/Status' }
        examples: [{ payload: { level: 9 } }]
operations:
  onStatus: { action: receive, channel: { $ref: '#/channels/status' } }
components:
  schemas:
    Status: { oneOf: [{ $ref: '#/components/schemas/Up' }, { $ref: '#/components/schemas/Down' }] }
    Up: { type: object, required: [since], properties: { since: { type: integer }, level: { enum: [1, 2] } } }
    Down: { type: object, required: [reason], properties: { reason: { type: string }, level: { enum: [1, 2] } } }`),
      );
      const err = await modelFromSpec(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SpecError);
      expect((err as SpecError).problems.map((p) => [p.pointer, p.message])).toEqual([
        [
          '#/channels/status/messages/Status/examples/0/payload',
          "example is not valid: / must have required property 'since'",
        ],
        [
          '#/channels/status/messages/Status/examples/0/payload',
          'example is not valid: /level must be equal to one of the allowed values',
        ],
        [
          '#/channels/status/messages/Status/examples/0/payload',
          "example is not valid: / must have required property 'reason'",
        ],
        [
          '#/channels/status/messages/Status/examples/0/payload',
          'example is not valid: / must match exactly one schema in oneOf',
        ],
      ]);
    },
  );

  it('YAML that does not parse names the line', async () => {
    const file = writeSpec('asyncapi: 3.0.0\ninfo: [unclosed\n');
    await expect(loadSpec(file)).rejects.toThrow(/not valid YAML/);
  });

  it('the command line prints the file, line and pointer, exits 2, and never a stack trace', async () => {
    // The conventions' broken copy (its parser verdict is kept): Direction's enum is one of its errors.
    const file = writeSpec(broken(CONVENTIONS)(ours), 'broken.asyncapi.yaml');
    const r = await runMain(['generate', '--spec', file, '--out', file + '.out', '--check']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/broken\.asyncapi\.yaml:\d+ #\/components\/schemas\/Direction\/enum\/1: enum value 7/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a missing spec file is a clear error', async () => {
    const r = await runMain(['generate', '--spec', 'no/such/spec.yaml', '--out', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read the spec/);
  });
});

describe('a $ref cycle that never reaches a value is named before the parser runs (it would spin forever)', () => {
  const withSchemas = (schemas: string) =>
    miniSpec(`channels:
  c:
    address: c
    x-access: public
    messages:
      m: { payload: { $ref: '#/components/schemas/A' } }
components:
  schemas:
${schemas}`);

  it.each([
    [
      'two schemas that are each a $ref to the other',
      `    A: { $ref: '#/components/schemas/B' }\n    B: { $ref: '#/components/schemas/A' }`,
      '#/components/schemas/A/$ref',
      new RegExp(
        /\$ref cycle that never reaches a value: /.source +
          /#\/components\/schemas\/A\/\$ref → #\/components\/schemas\/B\/\$ref → #\/components\/schemas\/A\/\$ref/
            .source,
      ),
    ],
    [
      'a schema that is only a $ref to itself',
      `    A: { $ref: '#/components/schemas/A' }`,
      '#/components/schemas/A/$ref',
      /#\/components\/schemas\/A is only a \$ref to itself/,
    ],
    [
      'a schema that is allOf itself',
      `    A: { allOf: [ { $ref: '#/components/schemas/A' } ] }`,
      '#/components/schemas/A/allOf/0/$ref',
      /#\/components\/schemas\/A is only a \$ref to itself/,
    ],
    [
      'a three-schema cycle through oneOf',
      `    A: { $ref: '#/components/schemas/B' }\n    B: { oneOf: [ { type: string ` +
        `}, { $ref: '#/components/schemas/C' } ] }\n    C: { $ref: '#/components/schemas/A' }`,
      '#/components/schemas/A/$ref',
      /\$ref cycle .*A\/\$ref → .*B\/oneOf\/1\/\$ref → .*C\/\$ref → .*A\/\$ref/,
    ],
  ])('%s: one error with the file, line and pointers, in bounded time', async (_name, schemas, pointer, message) => {
    const file = writeSpec(withSchemas(schemas), 'cycle.asyncapi.yaml');
    for (const command of [
      ['spec', '--spec', file],
      ['generate', '--spec', file, '--out', file + '.out'],
    ]) {
      // The test's own time limit is the bound: a load that spins forever fails it.
      const r = await runMain(command);
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines[0]).toBe(`exchange-api ${command[0]}: the spec has 1 error(s)`);
      expect(lines[1]).toContain(`cycle.asyncapi.yaml:`);
      expect(lines[1]).toContain(` ${pointer}: `);
      expect(lines[1]).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('recursion through a value (a field of the same record) is a real shape and loads', async () => {
    const file = writeSpec(
      withSchemas(`    A: { type: object, properties: { child: { $ref: '#/components/schemas/A' } } }`),
      'tree.asyncapi.yaml',
    );
    await expect(loadSpec(file)).resolves.toBeTruthy();
  });
});

describe(
  'a spec path that is not a regular file ends in one error, in bounded time ' + '(it would block or never end)',
  () => {
    it.each(['/dev/zero', repoRoot])('%s', async (path) => {
      // The test's own time limit is the bound: a read that blocks fails it.
      const r = await runMain(['spec', '--spec', path]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/cannot read the spec: .* is not a regular file/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  },
);

describe('the AsyncAPI parser runs with a time bound (no step of loading may go on forever)', () => {
  it('a parse that outlasts its bound is stopped and reported as a spec error naming the bound', async () => {
    const started = Date.now();
    const err = await loadSpec(ourSpec, { parseBoundMs: 1, parseCache: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(
        /^spec too slow to parse: stopped after [0-9.]+ s of CPU time \(.*asyncapi\.yaml\); the bound is 0\.001 s$/,
      ),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it(
    'after a parse stopped at its bound, the next load gets a parser of its own ' + "and finds a broken spec's error",
    async () => {
      await expect(loadSpec(ourSpec, { parseBoundMs: 1, parseCache: false })).rejects.toBeInstanceOf(SpecError);
      const { problems } = await problemsOf(broken(CONVENTIONS));
      expect(problems.map((p) => p.pointer)).toContain('#/components/schemas/Direction/enum/1');
      // The parser worker kept from that load serves the next one: a good spec loads clean.
      await expect(loadSpec(ourSpec)).resolves.toMatchObject({ notes: [] });
    },
  );

  it('within the default bound our spec parses', async () => {
    await expect(loadSpec(ourSpec)).resolves.toBeTruthy();
  });
});
