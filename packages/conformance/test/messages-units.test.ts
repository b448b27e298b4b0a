/**
 * The message runner's parts on a spec written here: where it connects (the address joined to the --ws
 * URL, parameters and required query filled, channels at one URL sharing it), which message a frame is
 * (constants first, then the schema), and a send operation's inputs (examples its schema refuses left
 * out; inputs that differ only in the correlation field sent once).
 */
import { describe, expect, it } from 'vitest';
import { addressesOf } from '../src/messages/addresses';
import { classify } from '../src/messages/classify';
import { opCases } from '../src/messages/op-cases';
import { MsgEnv } from '../src/messages/env';
import { msgSpecOf, type WireShape } from '../src/messages/wire-shape';
import { SchemaSet } from '../src/generate/schema-set';
import { Transcript } from '../src/transcript';

const ping = {
  type: 'object',
  properties: { event: { type: 'string', const: 'ping' }, reqid: { type: 'integer' } },
  required: ['event'],
};
const pong = { type: 'object', properties: { event: { const: 'pong' }, reqid: { type: 'integer' } } };

const wire: WireShape = {
  framing: 'messages',
  reason: 'x-framing',
  channels: [
    { id: 'root', address: '/', parameters: [], query: null },
    { id: 'also', address: '/', parameters: [], query: null },
    { id: 'market', address: '/v1/{symbol}', parameters: ['symbol'], query: null },
    {
      id: 'feed',
      address: '/feed/{name}',
      parameters: ['name'],
      query: { type: 'object', properties: { depth: { type: 'integer' } }, required: ['depth'] },
    },
  ],
  messages: [
    {
      id: '#/ping',
      key: 'ping',
      payload: { schema: { $ref: '#/definitions/ping' } },
      correlation: '/reqid',
      discriminators: [{ pointer: '/event', values: ['ping'] }],
      examples: [
        { event: 'ping', reqid: 5 },
        { event: 'ping', reqid: 'no' },
      ],
    },
    {
      id: '#/pong',
      key: 'pong',
      payload: { schema: pong },
      correlation: '/reqid',
      discriminators: [{ pointer: '/event', values: ['pong'] }],
      examples: [],
    },
  ],
  operations: [
    {
      id: 'ping',
      action: 'send',
      channel: 'root',
      messages: ['#/ping'],
      correlation: '/reqid',
      correlationType: 'number',
      reply: { channel: 'also', messages: ['#/pong'], correlation: '/reqid' },
    },
    {
      id: 'ticks',
      action: 'receive',
      channel: 'market',
      messages: ['#/pong'],
      correlation: null,
      correlationType: null,
      reply: null,
    },
  ],
};

const spec = msgSpecOf(
  {
    title: 't',
    version: '1',
    schemas: { ping },
    channels: [{ id: 'market', parameters: [{ name: 'symbol', enum: ['btcusd', 'ethusd'] }] }],
    wire,
  },
  'spec.yaml',
)!;

describe('message runner parts', () => {
  it('connects where the spec says: the address under the --ws path, parameters and required query filled', () => {
    const a = addressesOf(spec, 'ws://127.0.0.1:1/raw');
    expect(a.map((x) => [x.url, x.channels, x.guessed])).toEqual([
      ['ws://127.0.0.1:1/raw/', ['root', 'also'], []],
      ['ws://127.0.0.1:1/raw/v1/btcusd', ['market'], []],
      ['ws://127.0.0.1:1/raw/feed/x?depth=1', ['feed'], ['feed.name']],
    ]);
    expect(a[0]!.sends.map((o) => o.id)).toEqual(['ping']);
    expect(a[1]!.receives.map((o) => o.id)).toEqual(['ticks']);
  });

  it('tells a frame by its constants first, then its schema; a claimed but invalid frame says why', () => {
    const schemas = new SchemaSet(spec.doc);
    const ids = ['#/ping', '#/pong'];
    expect(classify(spec, schemas, ids, { event: 'pong', reqid: 1 })).toEqual({
      message: '#/pong',
      valid: true,
      why: '',
    });
    expect(classify(spec, schemas, ids, { event: 'ping', reqid: 'x' })).toMatchObject({
      message: '#/ping',
      valid: false,
      why: expect.stringContaining('/reqid'),
    });
    expect(classify(spec, schemas, ['#/ping'], { event: 'other' })).toBeNull();
  });

  it("an operation's inputs: a refused example left out; inputs differing only in the correlation field once", () => {
    const env = new MsgEnv(spec, new SchemaSet(spec.doc), new Transcript(0), addressesOf(spec, 'ws://h'), {
      replyMs: 100,
      seed: 1,
      randomCases: 0,
      shrinkCalls: 0,
      deadline: Date.now(),
    });
    const cases = opCases(env, spec.wire.operations[0]!);
    expect(cases.filter((c) => c.cls === 'example').map((c) => c.params)).toEqual([{ event: 'ping', reqid: 5 }]);
    const valid = cases.filter((c) => c.expect === 'valid');
    // The edges of /reqid (0, -1, …) and "required members only" are the example once the runner fills /reqid.
    expect(valid.map((c) => c.why)).toEqual(['example #1 of ping', '/x_extra_member: a member the open object allows']);
    expect(cases.some((c) => c.expect === 'invalid' && c.why.includes('/reqid'))).toBe(true);
  });
});
