/**
 * An independent peer (issue 33, item 5): @scalar/mock-server, a mock of AsyncAPI WebSocket APIs we did
 * not write, serving the same specs; our generated client reaches it under strict validation, and
 * reports what the peer does that the spec does not allow, and nothing else. It runs here on Node
 * 20.20 although its package declares `node >=22` (docs/mock.md, "An independent peer").
 *
 * How Scalar reads a spec (its dist/transports/websocket.js): from the client's side, a channel of a
 * `ws`/`wss` server is served at its address; one message of each `receive` operation is pushed on
 * connect; every frame a client sends is answered with a message of the channel's first `send`
 * operation, its first example else one generated from its schema, a string sent as it is (not as
 * JSON). So the ticker's tick is pushed and its echo answered; where the peer departs from the spec,
 * our client says so and takes nothing it should not: the ticker's subscribe is answered with a
 * `subscribe` message (not its `subscribed` reply), reported as unasked; Postman echo's reply is its
 * first example, the string `test`, sent bare, which is no JSON (reported as garbage). The runner meets
 * the same peer and the same two departures in test/conformance/scalar-runner.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateInto } from '@exchange-api/codegen';
import { ProtocolError, TimeoutError } from '@exchange-api/client';
import { serveScalar } from '../support/scalar';

const repoRoot = join(import.meta.dirname, '..', '..');
const SPECS = {
  'postman-echo': join(import.meta.dirname, 'fixtures', 'public', 'postman-echo.asyncapi.yaml'),
  ticker: join(import.meta.dirname, 'fixtures', 'ticker.asyncapi.yaml'),
};
type Name = keyof typeof SPECS;
interface Client {
  on(event: 'error' | 'validation', fn: (e: unknown) => void): () => void;
  request(op: string, payload: unknown, o?: object): Promise<unknown>;
  stream(op: string, o?: object): AsyncIterableIterator<unknown>;
  close(): Promise<void>;
}
type Sdk = { createClient(o: { url: string; validate: 'strict'; timeoutMs: number }): Client };
const sdks = {} as Record<Name, Sdk>;
let out: string;

beforeAll(async () => {
  mkdirSync(join(repoRoot, 'test-output', 'sdk'), { recursive: true });
  out = mkdtempSync(join(repoRoot, 'test-output', 'sdk', 'scalar-'));
  for (const name of Object.keys(SPECS) as Name[]) {
    await generateInto(SPECS[name], join(out, name), { check: false });
    sdks[name] = (await import(pathToFileURL(join(out, name, 'src', 'index.ts')).href)) as Sdk;
  }
}, 240_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** Scalar's mock of a spec on loopback port 0, and a strict client of ours that records every event. */
async function peer(name: Name, timeoutMs = 5_000) {
  const { url, close } = await serveScalar(SPECS[name]);
  closers.push(close);
  const client = sdks[name].createClient({ url, validate: 'strict', timeoutMs });
  closers.push(() => client.close());
  const events: unknown[] = [];
  client.on('error', (e) => events.push(e));
  client.on('validation', (r) => events.push(r));
  return { client, events };
}

describe('@scalar/mock-server as an independent peer', () => {
  it('ticker: a request gets its reply (no correlation id: the next fitting frame), valid', async () => {
    const { client, events } = await peer('ticker');
    const reply = (await client.request('echo', { text: 'hi' })) as { text: string };
    expect(typeof reply.text).toBe('string');
    expect(events).toEqual([]);
  });

  it('ticker: the tick pushed on connect reaches the stream, valid, with the query and headers given', async () => {
    const { client, events } = await peer('ticker');
    const ticks = client.stream('ticks', {
      params: { pair: 'btcusd' },
      query: { depth: 3 },
      headers: { 'X-Api-Key': 'k' },
    });
    const first = (await ticks.next()).value as { event: string; price: number };
    expect(first).toMatchObject({ event: 'tick' });
    expect(typeof first.price).toBe('number');
    expect(events).toEqual([]);
  });

  it(
    'ticker: Scalar answers subscribe with a subscribe ' + 'message; reported as unasked, never taken as the reply',
    async () => {
      const { client, events } = await peer('ticker', 1_000);
      const unasked = new Promise<ProtocolError>((resolve) =>
        client.on('error', (e) => e instanceof ProtocolError && resolve(e)),
      );
      // A reqid of our own: Scalar's answer (its example, generated from the schema) carries reqid 1.
      const err = await client
        .request('subscribe', { event: 'subscribe', reqid: 7 }, { params: { pair: 'ethusd' } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TimeoutError);
      const e = await unasked;
      expect(e.fault).toBe('unasked');
      expect(JSON.parse(e.frame!)).toMatchObject({ event: 'subscribe' });
      // Nothing else: the tick pushed on connect is valid, so the one report is the peer's deviation.
      expect(events).toHaveLength(1);
    },
  );

  it('Postman echo: its reply, the string `test` sent bare, is no JSON: reported as garbage, not taken', async () => {
    const { client, events } = await peer('postman-echo', 1_000);
    const err = await client.request('sendEchoMessage', { hello: 'scalar' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(events).toHaveLength(1);
    expect(events[0]).toBeInstanceOf(ProtocolError);
    expect([(events[0] as ProtocolError).fault, (events[0] as ProtocolError).frame]).toEqual(['garbage', 'test']);
  });
});
