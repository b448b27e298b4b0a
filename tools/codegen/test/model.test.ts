import { describe, expect, it } from 'vitest';
import { loadSpec, buildModel, type ApiModel } from '../src/index';
import { miniSpec, writeSpec } from './helpers';

async function modelOf(body: string): Promise<ApiModel> {
  return buildModel(await loadSpec(writeSpec(miniSpec(body))));
}

const rpcChannel = `
  rpc:
    address: null
    messages:
      Req: { payload: { $ref: '#/components/schemas/Req' } }
      Res: { payload: { type: array, items: { $ref: '#/components/schemas/Item' } } }`;

type Case = [name: string, given: string, want: (m: ApiModel) => unknown, expected: unknown];

const cases: Case[] = [
  [
    'a channel: address template, parameters in order with their enums, access, array payload',
    `channels:
  book:
    address: 'book.{market}.{depth}'
    parameters:
      market: { description: The market. }
      depth: { enum: ['5', '50'] }
    messages:
      M: { payload: { type: array, items: { $ref: '#/components/schemas/Item' } } }
    x-access: private
components:
  schemas:
    Item: { type: object, properties: { a: { type: string } } }`,
    (m) =>
      m.channels.map(({ id, address, access, parameters, payload }) => ({
        id,
        address,
        access,
        parameters,
        record: payload.record,
        array: payload.array,
      })),
    [
      {
        id: 'book',
        address: 'book.{market}.{depth}',
        access: 'private',
        record: 'Item',
        array: true,
        parameters: [
          { name: 'market', description: 'The market.', enum: null },
          { name: 'depth', description: '', enum: ['5', '50'] },
        ],
      },
    ],
  ],
  [
    'a method: name, params and result records, class, transports, http path, auth',
    `channels:${rpcChannel}
operations:
  doIt:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/Req' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/Res' }] }
    x-method: private/do_it
    x-transports: [ws, http]
    x-http-path: /v1/private/do_it
    x-rate-limit-class: heavy
    x-auth: login
components:
  schemas:
    Req: { type: object, properties: { n: { type: integer } } }
    Item: { type: string }
x-rate-limit-classes: [{ name: heavy, budget: heavy }]`,
    (m) =>
      m.methods.map(({ id, name, params, result, rateLimitClass, transports, httpPath, auth, orderFlow }) => ({
        id,
        name,
        params: params.record,
        result: [result.record, result.array],
        rateLimitClass,
        transports,
        httpPath,
        auth,
        orderFlow,
      })),
    [
      {
        id: 'doIt',
        name: 'private/do_it',
        params: 'Req',
        result: ['Item', true],
        rateLimitClass: 'heavy',
        transports: ['ws', 'http'],
        httpPath: '/v1/private/do_it',
        auth: 'login',
        orderFlow: false,
      },
    ],
  ],
  [
    'a signed method: its rate-limit key, its action module, its source; the ' +
      'modules and deployments of the action signature',
    `channels:${rpcChannel}
operations:
  place:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/Req' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/Res' }] }
    x-method: private/place
    x-rate-limit-key: place
    x-action-module: trade
    x-order-flow: true
    x-source: clients
  answer:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/Req' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/Res' }] }
    x-method: private/answer
    x-action-module: rfq
    x-action-data: execute
  peek:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/Req' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/Res' }] }
    x-method: public/peek
components:
  schemas:
    Req: { type: object, properties: { n: { type: integer } } }
    Item: { type: string }
x-action-signature:
  domain: { name: D, version: '1', chainId: 5 }
  primaryType: Action
  types: { Action: [{ name: data, type: bytes }] }
  modules:
    trade:
      address: '0x00000000000000000000000000000000000000aa'
      data: [{ name: isBid, type: bool, from: direction is buy }]
    rfq:
      address: '0x00000000000000000000000000000000000000cc'
      data:
        - { name: quote, type: '(uint256 maxFee)', from: a quote }
        - { name: execute, type: '(bytes32 orderHash)', from: its execution }
  deployments:
    - name: test
      network: testnet
      domain: { chainId: 5 }
      separator: '0x01'
      modules: { trade: '0x00000000000000000000000000000000000000bb' }`,
    (m) => ({
      methods: m.methods.map(({ name, rateLimitKey, actionModule, actionData, source }) => ({
        name,
        rateLimitKey,
        actionModule,
        actionData,
        source,
      })),
      modules: m.actionSignature && Object.keys(m.actionSignature.modules),
      deployments: m.actionSignature?.deployments,
    }),
    {
      methods: [
        { name: 'private/place', rateLimitKey: 'place', actionModule: 'trade', actionData: [], source: 'clients' },
        {
          name: 'private/answer',
          rateLimitKey: 'private/answer',
          actionModule: 'rfq',
          actionData: ['execute'],
          source: 'document',
        },
        { name: 'public/peek', rateLimitKey: 'public/peek', actionModule: null, actionData: [], source: 'document' },
      ],
      modules: ['trade', 'rfq'],
      deployments: [
        {
          name: 'test',
          network: 'testnet',
          domain: { chainId: 5 },
          separator: '0x01',
          modules: { trade: '0x00000000000000000000000000000000000000bb' },
        },
      ],
    },
  ],
  [
    'records: fields in order, required, nullable, defaults, type expressions and refs',
    `components:
  schemas:
    Money: { type: string, pattern: '^[0-9]+$' }
    Rec:
      type: object
      required: [a, b]
      properties:
        a: { $ref: '#/components/schemas/Money' }
        b: { anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }] }
        c: { type: string, default: '' }
        d: { type: array, items: { $ref: '#/components/schemas/Money' } }
        e: { type: [integer, 'null'] }`,
    (m) =>
      m.types.find((t) => t.name === 'Rec')!.fields!.map((f) => [f.name, f.required, f.nullable, f.type, f.default]),
    [
      ['a', true, false, 'Money', undefined],
      ['b', true, true, 'Money | null', undefined],
      ['c', false, false, 'string', ''],
      ['d', false, false, 'array of Money', undefined],
      ['e', false, true, 'integer | null', undefined],
    ],
  ],
  [
    'kinds: enum values in order (empty string kept), scalars, unions, open schemas with their marker',
    `components:
  schemas:
    Reason: { type: string, enum: ['', z, a] }
    Level: { type: integer, enum: [3, 1, 2] }
    Id: { type: string }
    Either: { anyOf: [{ type: string }, { type: number }] }
    Blob: { type: object, x-not-shown: Fields are not shown. }`,
    (m) => m.types.map((t) => [t.name, t.kind, t.values ?? null, t.notShown ?? null]),
    [
      ['Reason', 'enum', ['', 'z', 'a'], null],
      ['Level', 'enum', [3, 1, 2], null],
      ['Id', 'scalar', null, null],
      ['Either', 'union', null, null],
      ['Blob', 'open', null, 'Fields are not shown.'],
    ],
  ],
  [
    'schemas are cleaned: x- keys dropped, refs rewritten to #/definitions',
    `components:
  schemas:
    A: { type: object, properties: { b: { $ref: '#/components/schemas/B' } }, x-not-shown: open }
    B: { type: string }`,
    (m) => m.schemas.A,
    { type: 'object', properties: { b: { $ref: '#/definitions/B' } } },
  ],
  [
    'not-shown markers and assumptions are collected with their places',
    `components:
  schemas:
    T: { type: object, x-not-shown: The fields of T are not shown., x-assumption: t-open }
x-assumptions:
  - { id: t-open, title: T is open, choice: Accept anything, reason: Not shown. }`,
    (m) => ({ notShown: m.notShown, assumptions: m.assumptions }),
    {
      notShown: [
        { pointer: '#/components/schemas/T/x-not-shown', where: 'schema T', text: 'The fields of T are not shown.' },
      ],
      assumptions: [
        {
          id: 't-open',
          title: 'T is open',
          choice: 'Accept anything',
          reason: 'Not shown.',
          citedAt: ['#/components/schemas/T'],
        },
      ],
    },
  ],
  [
    'limits, errors and login tables',
    `x-limits:
  - { id: w, title: Window, kind: window, scope: wallet, tps: 2, windowMs: 1000, points: 2 }
  - { id: c, title: Conns, kind: connections, scope: ip, max: 3 }
x-errors:
  reserved: [{ from: -32099, to: -32000, purpose: Rate limits. }]
  codes:
    - code: -32000
      message: Slow down
      condition: Too fast.
      data: 'Retry after <ms> ms'
      dataPattern: '^Retry after [0-9]+ ms$'
x-login:
  headers: { wallet: X-W, timestamp: X-T, signature: X-S }
  alternateHeaders: [{ wallet: X-LW, timestamp: X-LT, signature: X-LS }]
  message: ms
  freshness: { pastMs: 10, futureMs: 1, appliesTo: wallet }`,
    (m) => ({ limits: m.limits, errors: m.errors, login: m.login }),
    {
      limits: [
        { id: 'w', title: 'Window', kind: 'window', scope: 'wallet', tps: 2, windowMs: 1000, points: 2 },
        { id: 'c', title: 'Conns', kind: 'connections', scope: 'ip', max: 3 },
      ],
      errors: {
        reserved: [{ from: -32099, to: -32000, purpose: 'Rate limits.' }],
        codes: [
          {
            code: -32000,
            message: 'Slow down',
            condition: 'Too fast.',
            data: 'Retry after <ms> ms',
            dataPattern: '^Retry after [0-9]+ ms$',
          },
        ],
      },
      login: {
        headers: { wallet: 'X-W', timestamp: 'X-T', signature: 'X-S' },
        alternateHeaders: [{ wallet: 'X-LW', timestamp: 'X-LT', signature: 'X-LS' }],
        message: 'ms',
        freshness: { pastMs: 10, futureMs: 1, appliesTo: 'wallet' },
        reverifyIntervalMs: null,
      },
    },
  ],
];

describe('spec → model', () => {
  it.each(cases)('%s', async (_name, given, want, expected) => {
    expect(want(await modelOf(given))).toEqual(expected);
  });

  it('the model is plain JSON: it survives a round trip unchanged', async () => {
    const { ourModel } = await import('./helpers');
    const model = await ourModel();
    expect(JSON.parse(JSON.stringify(model))).toEqual(model);
    // The document's 13 channels and the two the public clients subscribe to (batch-status-channels).
    expect(model.channels).toHaveLength(15);
    expect(model.methods.map((m) => m.name)).toContain('public/getRateLimits');
  });
});
