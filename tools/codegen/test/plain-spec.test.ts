/**
 * A spec without our x- extensions: how it maps onto the model (model/plain-spec.ts) and the one
 * note per kind of default applied. The generated package of such a spec is proved installed, in
 * test/consumer (sdk.ts).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { modelFromSpec, defaultNote, emitTypes, generateInto, SpecError } from '../src/index';
import { miniSpec, scratchDir, typecheck, writeSpec } from './helpers';

const plain = miniSpec(`channels:
  rpc:
    address: /rpc
    messages:
      Ask: { payload: { type: object, required: [q], properties: { q: { type: string } } } }
      Answer: { payload: { type: object, properties: { a: { type: integer } } } }
      Ping: { payload: { type: object } }
  prices:
    address: 'prices.{symbol}'
    parameters: { symbol: { description: A symbol. } }
    messages:
      Quote: { payload: { $ref: '#/components/schemas/Quote' } }
      Halt: { payload: { $ref: '#/components/schemas/Halt' } }
  news:
    address: news
    messages:
      Headline: { payload: { $ref: '#/components/schemas/Halt' } }
operations:
  ask:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/Ask' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/Answer' }] }
  ping:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/Ping' }]
  onPrices:
    action: receive
    channel: { $ref: '#/channels/prices' }
components:
  schemas:
    Quote: { type: object, required: [bid], properties: { bid: { type: number } } }
    Halt: { type: object, required: [reason], properties: { reason: { type: string } } }`);

describe('a spec without our extensions', () => {
  it(
    'maps: send with reply is a method (named by operation id), send without ' +
      'reply is left out, a send-only channel is no subscription channel',
    async () => {
      const model = await modelFromSpec(writeSpec(plain));
      expect(model.methods.map((m) => [m.id, m.name, m.transports, m.rateLimitClass, m.auth])).toEqual([
        ['ask', 'ask', ['ws'], null, 'none'],
      ]);
      expect(model.channels.map((c) => [c.id, c.access])).toEqual([
        ['prices', 'public'],
        ['news', 'public'],
      ]);
      // Several messages: any one of them. Inline payloads: named types of their own.
      expect(model.channels[0]!.payload.schema).toEqual({
        anyOf: [{ $ref: '#/definitions/Quote' }, { $ref: '#/definitions/Halt' }],
      });
      expect(model.methods[0]!.params.record).toBe('AskPayload');
      expect(model.types.map((t) => t.name)).toEqual(['Quote', 'Halt', 'AskPayload', 'AnswerPayload']);
    },
  );

  it('notes each kind of default once, with its places', async () => {
    const model = await modelFromSpec(writeSpec(plain));
    expect(model.defaults.map((d) => d.kind)).toEqual([
      'access',
      'method',
      'transports',
      'rateLimitClass',
      'auth',
      'roles',
      'messages',
      'oneWay',
      'inlinePayload',
    ]);
    expect(defaultNote(model.defaults[0]!)).toBe(
      'note: a channel without x-access is public (2 places: channel prices, channel news)',
    );
    expect(model.defaults.find((d) => d.kind === 'oneWay')!.places).toEqual(['operation ping']);
  });

  it(
    "reads a spec written from the server's side (it sends the pushes, receives " +
      'requests and replies) that way, and notes it',
    async () => {
      const serverSide = miniSpec(`channels:
  ticker:
    address: 'ticker.{pair}'
    parameters: { pair: { enum: [btcusd, ethusd] } }
    messages:
      Tick: { payload: { type: object, required: [price], properties: { price: { type: number } } } }
  ping:
    address: /
    messages:
      Ping: { payload: { type: object, properties: { reqid: { type: integer } } } }
  pong:
    address: /
    messages:
      Pong: { payload: { type: object, properties: { reqid: { type: integer } } } }
  orders:
    address: orders
    messages:
      Order: { payload: { type: object, properties: { id: { type: string } } } }
operations:
  sendTicks: { action: send, channel: { $ref: '#/channels/ticker' } }
  receivePing: { action: receive, channel: { $ref: '#/channels/ping' },
    reply: { channel: { $ref: '#/channels/pong' } } }
  receiveOrder: { action: receive, channel: { $ref: '#/channels/orders' } }`);
      const model = await modelFromSpec(writeSpec(serverSide));
      // The server's send is what a client subscribes to; the reply channel carries replies only.
      expect(model.channels.map((c) => [c.id, c.payload.record])).toEqual([['ticker', 'TickPayload']]);
      // No messages listed: the operation carries its channel's, the reply its reply channel's.
      expect(model.methods.map((m) => [m.id, m.params.record, m.result.record])).toEqual([
        ['receivePing', 'PingPayload', 'PongPayload'],
      ]);
      expect(model.defaults.find((d) => d.kind === 'serverView')!.places).toEqual(['2 of 3 operations']);
      expect(model.defaults.find((d) => d.kind === 'oneWay')!.places).toEqual(['operation receiveOrder']);
      // Read from the client's side, the same spec had no channel and no method at all.
      const clientSide = await modelFromSpec(
        writeSpec(
          serverSide
            .replace(/action: send/, 'action: receive')
            .replace(/receivePing: \{ action: receive/, 'receivePing: { action: send')
            .replace(/receiveOrder: \{ action: receive/, 'receiveOrder: { action: send'),
        ),
      );
      expect(clientSide.defaults.map((d) => d.kind)).not.toContain('serverView');
      expect([clientSide.channels.map((c) => c.id), clientSide.methods.map((m) => m.id)]).toEqual([
        ['ticker'],
        ['receivePing'],
      ]);
      // x-view at the root settles it, without a note; a value outside the vocabulary is an error at its pointer.
      const stated = await modelFromSpec(writeSpec(serverSide.replace('channels:', 'x-view: client\nchannels:')));
      expect(stated.defaults.map((d) => d.kind)).not.toContain('serverView');
      expect([stated.channels.map((c) => c.id), stated.methods.map((m) => m.id)]).toEqual([['ping', 'orders'], []]);
      const err = await modelFromSpec(writeSpec(serverSide.replace('channels:', 'x-view: both\nchannels:'))).catch(
        (e: unknown) => e,
      );
      expect((err as SpecError).problems.map((p) => [p.pointer, p.message])).toEqual([
        ['#/x-view', 'x-view must be one of client, server (got "both")'],
      ]);
    },
  );

  it(
    'merges subscription channels at one address into the first (a push names ' +
      'only its address), whose sources still type-check',
    async () => {
      const shared = miniSpec(`channels:
  heartbeat:
    address: /
    messages:
      Beat:
        payload: { type: object, required: [event], properties: { event: { const: heartbeat } } }
        examples: [{ payload: { event: heartbeat } }]
  status:
    address: /
    messages:
      Status:
        payload: { type: object, required: [event], properties: { event: { const: status }, up: { type: boolean } } }
  trades:
    address: trades
    messages:
      Trade: { payload: { type: object, properties: { px: { type: number } } } }
operations:
  beat: { action: receive, channel: { $ref: '#/channels/heartbeat' } }
  status: { action: receive, channel: { $ref: '#/channels/status' } }
  trades: { action: receive, channel: { $ref: '#/channels/trades' } }`);
      const model = await modelFromSpec(writeSpec(shared));
      expect(model.channels.map((c) => [c.id, c.address])).toEqual([
        ['heartbeat', '/'],
        ['trades', 'trades'],
      ]);
      expect(model.channels[0]!.payload.schema).toEqual({
        anyOf: [{ $ref: '#/definitions/BeatPayload' }, { $ref: '#/definitions/StatusPayload' }],
      });
      expect(model.channels[0]!.examples).toEqual([{ event: 'heartbeat' }]);
      expect(model.defaults.find((d) => d.kind === 'sharedAddress')!.places).toEqual([
        'heartbeat, status at / → channel heartbeat',
      ]);
      const out = scratchDir('shared-address-');
      await generateInto(writeSpec(shared), out, { check: false });
      const checked = typecheck(join(out, 'src'));
      expect(checked.output).toBe('');
      expect(readFileSync(join(out, 'src', 'channels.gen.ts'), 'utf8')).toContain(
        'export type HeartbeatChannelPayload = T.BeatPayload | T.StatusPayload;',
      );
    },
    60_000,
  );

  it(
    'a channel of several messages whose schemas overlap takes a value that fits ' +
      'both (anyOf: under oneOf strict validation dropped it)',
    async () => {
      const overlap = miniSpec(`channels:
  feed:
    address: feed
    messages:
      Note: { payload: { type: object, properties: { text: { type: string } } } }
      Tag: { payload: { type: object, properties: { tag: { type: string } } } }
operations:
  onFeed: { action: receive, channel: { $ref: '#/channels/feed' } }`);
      const out = scratchDir('overlap-');
      await generateInto(writeSpec(overlap), out, { check: false });
      const v = (await import(pathToFileURL(join(out, 'src', 'validators.gen.js')).href)) as Record<
        string,
        (d: unknown) => boolean
      >;
      expect(v.channel_feed!({ text: 'hi' })).toBe(true);
      expect(v.channel_feed!({})).toBe(true);
      expect(v.channel_feed!({ text: 7 })).toBe(true); // fits Tag (any extra key): JSON Schema objects are open
      expect(v.channel_feed!({ text: 7, tag: 7 })).toBe(false);
      expect(readFileSync(join(out, 'src', 'channels.gen.ts'), 'utf8')).toContain(
        'export type FeedChannelPayload = T.NotePayload | T.TagPayload;',
      );
    },
    60_000,
  );

  it(
    'a free-form object (no properties listed) is open in the types; one that ' + 'allows no property stays closed',
    async () => {
      const spec = miniSpec(`channels:
  things:
    address: things
    messages:
      Thing:
        payload:
          type: object
          required: [data]
          properties: { data: { type: object }, none: { type: object, maxProperties: 0 } }
operations:
  onThings: { action: receive, channel: { $ref: '#/channels/things' } }`);
      const types = (await emitTypes(await modelFromSpec(writeSpec(spec)))).find(
        (f) => f.path === 'types.gen.ts',
      )!.content;
      expect(types).toMatch(/ {2}data: \{\n {4}\[k: string\]: unknown;\n {2}\};/);
      expect(types).toContain('  none?: {};');
    },
  );

  it('still refuses what cannot be generated: an x-method without a reply, with file, line and pointer', async () => {
    const spec = writeSpec(
      plain.replace('  ping:\n    action: send\n', '  ping:\n    action: send\n    x-method: ping\n'),
    );
    const err = await modelFromSpec(spec).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).problems.map((p) => [p.pointer, p.message])).toEqual([
      ['#/operations/ping', 'a method operation (x-method) must have a reply'],
    ]);
    expect((err as SpecError).problems[0]!.line).toBeGreaterThan(0);
  });
});

describe('the package of a spec with methods only (no channel)', () => {
  it('generates sources that type-check under strict settings', async () => {
    const methodsOnly = plain
      .replace(/\n {2}prices:[\s\S]*?(?=\noperations:)/, '')
      .replace(/\n {2}onPrices:[\s\S]*?(?=\ncomponents:)/, '');
    const out = scratchDir('methods-only-');
    const r = await generateInto(writeSpec(methodsOnly), out, { check: false });
    expect(r.notes.length).toBeGreaterThan(0);
    const checked = typecheck(join(out, 'src'));
    expect(checked.output).toBe('');
    expect(checked.status).toBe(0);
  }, 60_000);

  it('names its spec relative to the package, wherever the generator ran', async () => {
    const dir = scratchDir('where-');
    writeFileSync(join(dir, 'api.yaml'), plain);
    const elsewhere = scratchDir('cwd-');
    await generateInto(join('..', dir.split(/[\\/]/).pop()!, 'api.yaml'), join(dir, 'sdk'), {
      check: false,
      cwd: elsewhere,
    });
    const tables = readFileSync(join(dir, 'sdk', 'src', 'tables.gen.ts'), 'utf8');
    expect(tables).toContain('"source": "../api.yaml"');
    const readme = readFileSync(join(dir, 'sdk', 'README.md'), 'utf8');
    expect(readme.split('\n')[0]).toContain('from ../api.yaml.');
    expect(readme).toContain('generated from its AsyncAPI spec (`../api.yaml`)');
  }, 60_000);
});
