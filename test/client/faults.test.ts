/**
 * Faults injected with the sandbox's control plane: 50 drops during a stream, a garbage frame, a slow
 * server against a timeout, and the per-IP connection limit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import {
  createClient,
  ConnectionClosedError,
  ConnectionLimitError,
  TimeoutError,
  type ClientError,
  type ExchangeClient,
} from '@exchange-api/client';
import { channels } from '@exchange-api/types';
import { control, roomyLimits, until } from './helpers';

let sb: Sandbox | null = null;
const clients: ExchangeClient[] = [];
const raw: WebSocket[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const ws of raw.splice(0)) ws.terminate();
  await sb?.close();
  sb = null;
});

/** Open n plain sockets to the sandbox and wait until each is accepted (answers a request). */
async function holdSockets(url: string, n: number): Promise<WebSocket[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const ws = new WebSocket(url);
      raw.push(ws);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () =>
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'public/getRateLimits', params: {} })),
        );
        ws.once('message', (data) =>
          String(data).startsWith('{') ? resolve() : reject(new Error(`refused: ${String(data)}`)),
        );
        ws.once('error', reject);
      });
      return ws;
    }),
  );
}

function track(c: ExchangeClient) {
  const errors: ClientError[] = [];
  c.on('error', (e) => errors.push(e));
  clients.push(c);
  return errors;
}

/** A payload for `address` carrying mark `n` (where a test can see it), or null for channels it does not mark. */
function markedPayload(address: string, n: number): unknown {
  const tag = `mark-${n}`;
  if (address.startsWith('orderbook'))
    return { instrument_name: 'mark', publish_id: n, timestamp: 1, bids: [], asks: [] };
  if (address.startsWith('trades'))
    return [
      {
        direction: 'buy',
        expected_rebate: '0',
        extra_fee: '0',
        index_price: '1',
        mark_price: '1',
        realized_pnl: '0',
        realized_pnl_excl_fees: '0',
        trade_amount: '1',
        trade_fee: '0',
        trade_id: tag,
        trade_price: '1',
        instrument_name: 'ETH-PERP',
        wallet: '0x' + '1'.repeat(40),
        liquidity_role: 'maker',
        subaccount_id: 1,
        timestamp: 1,
      },
    ];
  if (address.endsWith('.balances'))
    return [{ name: tag, new_balance: '1', previous_balance: '0', update_type: 'transfer' }];
  return null;
}

/** The mark an array payload carries (trade id, order id or balance name `mark-<n>`), or null. */
function markOf(payload: unknown): number | null {
  const first = (payload as Array<{ trade_id?: string; order_id?: string; name?: string }>)[0];
  const tag = first?.trade_id ?? first?.order_id ?? first?.name;
  return tag?.startsWith('mark-') ? Number(tag.slice(5)) : null;
}

describe('faults', () => {
  it('50 drops during a stream: every subscription live exactly once, no call left pending', async () => {
    sb = await startSandbox({ port: 0, seed: 3, control: true, limits: roomyLimits, market: { intervalMs: 20 } });
    const client = createClient({
      wsUrl: sb.wsUrl,
      signer: Wallet.createRandom(),
      validate: 'strict',
      reconnect: { initialDelayMs: 5, maxDelayMs: 40 },
      limiter: { limits: roomyLimits },
    });
    const errors = track(client);
    await client.connect();
    const [sub] = await client.login();
    const addresses = [
      channels.orderbook({ instrument_name: 'ETH-PERP', group: 1, depth: 10 }),
      channels.trades({ instrument_name: 'ETH-PERP' }),
      channels.subaccountOrders({ subaccount_id: sub! }),
      channels.subaccountBalances({ subaccount_id: sub! }),
    ] as const;
    const marks = new Map<string, number[]>(addresses.map((a) => [a, []]));
    for (const a of addresses.slice(1)) {
      await client.subscribe(a, (p: unknown) => {
        const mark = markOf(p);
        if (mark !== null) marks.get(a)!.push(mark);
      });
    }
    let streamed = 0;
    const streaming = (async () => {
      for await (const book of client.stream(addresses[0], { bufferSize: 64 })) {
        if (book.instrument_name === 'mark') marks.get(addresses[0])!.push(book.publish_id);
        streamed++;
      }
    })();
    const settled: Array<'ok' | 'closed' | 'other'> = [];
    let opens = 0;
    client.on('state', (s) => s === 'open' && opens++);
    for (let i = 1; i <= 50; i++) {
      // Calls in flight while the socket goes down must settle, never hang.
      const inflight = client.call('public/getRateLimits', {}, { timeoutMs: 5000 }).then(
        () => settled.push('ok'),
        (e) => settled.push(e instanceof ConnectionClosedError ? 'closed' : 'other'),
      );
      await control(sb, 'drop', {});
      await until(() => opens === i, 60_000, `reconnect ${i}`);
      await inflight;
    }
    expect(settled).toHaveLength(50);
    expect(settled.filter((s) => s === 'other')).toEqual([]);
    expect(client.pendingCount).toBe(0);

    // Exactly one connection, holding each subscription once.
    const conns = (await control(sb, 'connections')) as Array<{ subscriptions: string[] }>;
    expect(conns).toHaveLength(1);
    expect([...conns[0]!.subscriptions].sort()).toEqual([...addresses].sort());

    // One marked payload per address reaches exactly one subscriber and each handler exactly once.
    for (const a of addresses) {
      const data = markedPayload(a, 1);
      if (!data) continue;
      const r = await control(sb, 'push', { channel: a, data });
      expect(r.delivered, a).toBe(1);
    }
    await until(
      () =>
        marks.get(addresses[0])!.length === 1 &&
        marks.get(addresses[1])!.length === 1 &&
        marks.get(addresses[3])!.length === 1,
      5000,
      'marked payloads',
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(marks.get(addresses[0])).toEqual([1]);
    expect(marks.get(addresses[1])).toEqual([1]);
    expect(marks.get(addresses[3])).toEqual([1]);
    expect(streamed).toBeGreaterThan(0);
    expect(errors.filter((e) => e.code !== 'PROTOCOL')).toEqual([]);
    await client.close();
    // The stream ends with the close above; what it saw is asserted before it.
    await streaming.catch(() => undefined);
  });

  it('a garbage frame is reported and the stream goes on', async () => {
    sb = await startSandbox({ port: 0, control: true, limits: roomyLimits, market: { intervalMs: 20 } });
    const client = createClient({ wsUrl: sb.wsUrl });
    const errors = track(client);
    await client.connect();
    const s = client.stream('orderbook.ETH-PERP.1.10');
    await s.ready;
    await control(sb, 'garbage', { text: 'garbage}{ not json' });
    let after = 0;
    for await (const _ of s) if (errors.length > 0 && ++after === 2) break;
    expect(errors[0]).toMatchObject({ code: 'PROTOCOL', fault: 'garbage' });
  });

  it('a slow server meets the timeout; the late answer is reported as an unknown id', async () => {
    sb = await startSandbox({ port: 0, control: true, limits: roomyLimits });
    const client = createClient({ wsUrl: sb.wsUrl });
    const errors = track(client);
    await client.connect();
    // The answer is held 3 s: the 150 ms timeout fires first, and the late answer is seen after it
    // (an order of events, the same on a loaded machine; the clock alone would not be).
    await control(sb, 'delay', { ms: 3000 });
    const err = await client.call('public/getRateLimits', {}, { timeoutMs: 150 }).catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(errors.some((e) => (e as { fault?: string }).fault === 'unknown-id')).toBe(false);
    expect(client.pendingCount).toBe(0);
    await until(() => errors.some((e) => (e as { fault?: string }).fault === 'unknown-id'), 60_000, 'the late answer');
    await control(sb, 'delay', { ms: 0 });
    expect((await client.call('public/getRateLimits', {})).remaining_non_matching).toBeDefined();
  });

  it('over the connection limit, connect() rejects with a ConnectionLimitError', async () => {
    sb = await startSandbox({ port: 0, limits: roomyLimits });
    await holdSockets(sb.wsUrl, 4);
    const client = createClient({ wsUrl: sb.wsUrl });
    track(client);
    const states: string[] = [];
    client.on('state', (s) => states.push(s));
    const err = await client.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionLimitError);
    expect(err).toMatchObject({ code: 'CONNECTION_LIMIT', rpcCode: -32100 });
    expect(states).toEqual(['connecting', 'closed']);
  });

  it('reconnecting over the connection limit: a longer back-off, and open only once truly accepted', async () => {
    sb = await startSandbox({ port: 0, control: true, limits: roomyLimits });
    const client = createClient({
      wsUrl: sb.wsUrl,
      reconnect: { initialDelayMs: 1000, maxDelayMs: 1000, connectionLimitDelayMs: 1500, jitter: 0 },
    });
    const errors = track(client);
    await client.connect();
    const states: string[] = [];
    client.on('state', (s) => states.push(s));
    const delays: number[] = [];
    client.on('reconnect', (r) => delays.push(r.delayMs));
    await control(sb, 'drop', {});
    // The client's place is taken before its first attempt (a second later).
    await until(async () => (await control(sb!, 'connections')).length === 0, 60_000, 'the dropped socket to be gone');
    const held = await holdSockets(sb.wsUrl, 4);
    await until(
      () => errors.filter((e) => e instanceof ConnectionLimitError).length >= 2,
      60_000,
      'two refused attempts',
    );
    expect(errors.find((e) => e instanceof ConnectionLimitError)).toMatchObject({
      code: 'CONNECTION_LIMIT',
      rpcCode: -32100,
    });
    // After a refusal the delay is the connection-limit floor, above the ordinary cap.
    expect(delays.slice(1).every((d) => d >= 1500)).toBe(true);
    expect(states).toEqual(['reconnecting']);
    held[0]!.close();
    await until(() => client.state === 'open', 60_000, 'the client to get back in');
    expect(states).toEqual(['reconnecting', 'open']);
    expect((await client.call('public/getRateLimits', {})).remaining_non_matching).toBeDefined();
  });
});
