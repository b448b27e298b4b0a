/**
 * How a spec meets the wire (model/wire.ts), on the five public WebSocket specs of
 * test/sdk/fixtures/public/ and on small specs: the framing chosen, URLs, the spec's own operation
 * ids from either side, reply correlation (declared, borrowed from the request, or none), and the
 * constants that tell messages apart. JSON-RPC specs (ours, the weather fixture) get no wire.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadSpec, type ApiModel } from '../src/index';
import { modelOfSpec } from '../src/model/checked-model';
import { miniSpec, repoRoot, writeSpec } from './helpers';

const fixtures = join(repoRoot, 'test', 'sdk', 'fixtures');
const publicSpec = (name: string) => join(fixtures, 'public', `${name}.asyncapi.yaml`);

async function modelOf(file: string): Promise<ApiModel> {
  return modelOfSpec(await loadSpec(file), { warnings: [] });
}

const wireOf = async (file: string) => {
  const wire = (await modelOf(file)).wire;
  if (!wire) throw new Error(`${file}: no wire model`);
  return wire;
};

describe('the framing a spec speaks', () => {
  it('each public WebSocket spec speaks its own messages, and says what showed it', async () => {
    const reasons = await Promise.all(
      ['kraken-message-filter', 'kraken-multiple-channels', 'gemini', 'slack-rtm', 'postman-echo'].map(
        async (n) => (await wireOf(publicSpec(n))).reason,
      ),
    );
    expect(reasons).toEqual([
      'a message declares a correlationId',
      'a message declares a correlationId',
      'a channel has ws bindings',
      'every channel address is a URL path',
      'every channel address is a URL path',
    ]);
    const model = await modelOf(publicSpec('gemini'));
    expect(model.defaults.find((d) => d.kind === 'framing')?.places).toEqual(['a channel has ws bindings']);
    // The JSON-RPC subscription frames are not assumed for it, so not noted.
    expect(model.defaults.some((d) => d.kind === 'roles')).toBe(false);
  });

  // Our own spec (x-role, x-method) stays JSON-RPC too: its generated files are unchanged (npm run generate --
  // --check).
  it('the weather fixture (none of our extensions, channel names for addresses) stays JSON-RPC: no wire', async () => {
    expect((await modelOf(join(fixtures, 'weather.asyncapi.yaml'))).wire).toBeUndefined();
  });

  it('x-framing at the root settles it either way, with no note', async () => {
    const body = (framing: string) =>
      miniSpec(`x-framing: ${framing}
channels:
  feed: { address: 'feed.{id}', messages: { tick: { payload: { type: object } } } }
operations:
  onTick: { action: receive, channel: { $ref: '#/channels/feed' } }`);
    const plain = await modelOf(writeSpec(body('messages')));
    expect(plain.wire?.reason).toBe('x-framing');
    expect(plain.defaults.some((d) => d.kind === 'framing')).toBe(false);
    expect((await modelOf(writeSpec(body('json-rpc')))).wire).toBeUndefined();
    await expect(loadSpec(writeSpec(body('soap')))).rejects.toThrow(/x-framing/);
  });
});

describe('the wire of each public spec', () => {
  it("Kraken (one channel): the spec's operation ids, from the server's side read as the client's", async () => {
    const wire = await wireOf(publicSpec('kraken-message-filter'));
    expect(wire.operations.map((o) => [o.id, o.action, o.reply !== null])).toEqual([
      ['receivePing', 'send', true],
      ['sendHeartbeat', 'receive', false],
      ['systemStatus', 'receive', false],
      ['receiveSubscribeRequest', 'send', true],
      ['receiveUnsubscribeRequest', 'send', true],
    ]);
    const subscribe = wire.operations.find((o) => o.id === 'receiveSubscribeRequest')!;
    expect(subscribe).toMatchObject({ correlation: '/reqid', correlationType: 'number' });
    expect(subscribe.reply).toEqual({
      channel: 'currencyExchange',
      messages: ['#/components/messages/subscriptionStatus', '#/components/messages/dummyCurrencyInfo'],
      correlation: '/reqid',
    });
    const byKey = Object.fromEntries(wire.messages.map((m) => [m.key, m]));
    expect(byKey.heartbeat!.discriminators).toEqual([{ pointer: '/event', values: ['heartbeat'] }]);
    // subscriptionStatus is a oneOf of two allOf's, each fixing event: the constant is read through both.
    expect(byKey.subscriptionStatus!.discriminators).toEqual([{ pointer: '/event', values: ['subscriptionStatus'] }]);
    expect(wire.channels).toEqual([
      { id: 'currencyExchange', address: '/', parameters: [], query: null, headers: null },
    ]);
  });

  it("Kraken (seven channels at /): a reply that declares no correlationId is matched at the request's", async () => {
    const wire = await wireOf(publicSpec('kraken-multiple-channels'));
    const subscribe = wire.operations.find((o) => o.id === 'subscribe')!;
    expect(subscribe.channel).toBe('subscribe');
    expect(subscribe.reply?.channel).toBe('currencyInfo');
    expect(wire.messages.find((m) => m.key === 'subscriptionStatus')!.correlation).toBeNull();
    expect(wire.operations.find((o) => o.id === 'unsubscribe')!.reply).toEqual({
      channel: 'currencyInfo',
      messages: ['#/components/messages/subscriptionStatus'],
      correlation: '/reqid',
    });
    expect(new Set(wire.channels.map((c) => c.address))).toEqual(new Set(['/']));
  });

  it('Gemini: an address parameter, the ws bindings query, one receive operation, told apart by type', async () => {
    const wire = await wireOf(publicSpec('gemini'));
    expect(wire.servers).toEqual([{ id: 'public', url: 'wss://api.gemini.com', ws: true }]);
    const [channel] = wire.channels;
    expect(channel).toMatchObject({ address: '/v1/marketdata/{symbol}', parameters: ['symbol'] });
    expect(Object.keys((channel!.query as { properties: object }).properties)).toEqual([
      'heartbeat',
      'top_of_book',
      'bids',
      'offers',
      'trades',
      'auctions',
    ]);
    expect(wire.operations).toEqual([
      expect.objectContaining({ id: 'sendMarketData', action: 'receive', correlation: null, reply: null }),
    ]);
    expect(wire.messages[0]!.discriminators).toEqual([{ pointer: '/type', values: ['heartbeat', 'update'] }]);
  });

  it('Slack RTM: one message sent, 46 received, each told apart by its type', async () => {
    const wire = await wireOf(publicSpec('slack-rtm'));
    const [send, receive] = wire.operations;
    expect([send!.id, send!.action, send!.messages.length]).toEqual(['receiveOutgoingMessage', 'send', 1]);
    expect([receive!.id, receive!.action, receive!.messages.length]).toEqual(['sendMessages', 'receive', 46]);
    const types = receive!.messages.map((id) => wire.messages.find((m) => m.id === id)!.discriminators[0]?.pointer);
    expect(new Set(types)).toEqual(new Set(['/type']));
    expect(wire.servers).toEqual([{ id: 'production', url: 'https://slack.com/api/rtm.connect', ws: false }]);
  });

  it('Postman echo: a pathname on the server, a reply without a correlation id, a payload of any value', async () => {
    const wire = await wireOf(publicSpec('postman-echo'));
    expect(wire.servers[0]!.url).toBe('wss://ws.postman-echo.com/raw');
    expect(wire.operations).toEqual([
      expect.objectContaining({
        id: 'sendEchoMessage',
        action: 'send',
        correlation: null,
        reply: { channel: 'echo', messages: ['#/components/messages/echo'], correlation: null },
      }),
    ]);
    expect(wire.messages[0]).toMatchObject({
      payload: { schema: {} },
      discriminators: [],
      examples: ['test', { test: 'test text' }],
    });
  });
});

describe('correlation ids', () => {
  it('a string correlation value is filled in as a string; a header location is none', async () => {
    const spec = miniSpec(`channels:
  rpc:
    address: /rpc
    messages:
      ask:
        payload: { type: object, properties: { id: { type: string }, q: { const: ask } } }
        correlationId: { location: '$message.payload#/id' }
      answer: { payload: { type: object, properties: { id: { type: string }, q: { const: answer } } } }
      hdr: { payload: { type: object }, correlationId: { location: '$message.header#/cid' } }
operations:
  ask:
    action: send
    channel: { $ref: '#/channels/rpc' }
    messages: [{ $ref: '#/channels/rpc/messages/ask' }]
    reply: { channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/answer' }] }
  poke: { action: send, channel: { $ref: '#/channels/rpc' }, messages: [{ $ref: '#/channels/rpc/messages/hdr' }] }`);
    const wire = await wireOf(writeSpec(spec));
    expect(wire.operations[0]).toMatchObject({
      correlation: '/id',
      correlationType: 'string',
      reply: { correlation: '/id' },
    });
    expect(wire.operations[1]).toMatchObject({ correlation: null, correlationType: null });
  });
});
