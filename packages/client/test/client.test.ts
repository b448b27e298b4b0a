import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { recoverLoginSigner, proofFromSources, recoverActionSigner } from '@exchange-api/auth';
import { channels } from '@exchange-api/types';
import {
  createClient,
  AbortedError,
  ConnectionClosedError,
  ConnectionLimitError,
  ProtocolError,
  RateLimitError,
  TimeoutError,
  AuthError,
  ConnectError,
  PayloadValidationError,
  type ExchangeClient,
  type ClientError,
  type ValidationReport,
  type ConnectionState,
  type WebSocketConstructor,
} from '../src/index';
import { book, startPeer, until, type Peer } from './peer';

const rateLimits = { remaining_matching: budget(5), remaining_non_matching: budget(25), remaining_per_endpoint: {} };
function budget(remainingPoints: number) {
  return { remainingPoints, msBeforeNext: 0, consumedPoints: 0, isFirstInDuration: false };
}
function instrument(instrument_name: string, instrument_type: string) {
  return { instrument_name, instrument_type, base_currency: instrument_name.split('-')[0], quote_currency: 'USDC', tick_size: '0.01', amount_step: '0.001', is_active: true };
}

let peer: Peer;
let client: ExchangeClient;
let errors: ClientError[];
let reports: ValidationReport[];
let states: ConnectionState[];

function make(extra: Parameters<typeof createClient>[0] extends infer O ? Partial<O> : never = {}) {
  client = createClient({ wsUrl: peer.url, validate: 'warn', reconnect: { initialDelayMs: 10, maxDelayMs: 50 }, ...extra });
  errors = [];
  reports = [];
  states = [];
  client.on('error', (e) => errors.push(e));
  client.on('validation', (r) => reports.push(r));
  client.on('state', (s) => states.push(s));
  return client;
}

beforeEach(async () => {
  peer = await startPeer();
  peer.answer = (req) => (req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined);
});
afterEach(async () => {
  await client?.close();
  await peer.close();
});

describe('calls over WebSocket', () => {
  it('sends a JSON-RPC request and resolves with the result', async () => {
    await make().connect();
    expect(states).toEqual(['connecting', 'open']);
    const r = await client.call('public/getRateLimits', {});
    expect(r.remaining_matching.remainingPoints).toBe(5);
    const req = peer.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'public/getRateLimits', params: {} });
    expect(client.pendingCount).toBe(0);
  });

  it('times out with a TimeoutError and leaves nothing pending', async () => {
    await make().connect();
    peer.answer = () => undefined;
    const err = await client.call('public/get_all_live_instruments', {}, { timeoutMs: 100 }).catch((e) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.code).toBe('TIMEOUT');
    expect(client.pendingCount).toBe(0);
  });

  it('aborts with an AbortedError', async () => {
    await make().connect();
    peer.answer = () => undefined;
    const ctl = new AbortController();
    const p = client.call('public/get_all_live_instruments', {}, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 20);
    const err = await p.catch((e) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(err.code).toBe('ABORTED');
    expect(client.pendingCount).toBe(0);
  });

  it('fails every pending call at once when the connection drops', async () => {
    await make({ reconnect: false }).connect();
    peer.answer = () => undefined;
    const calls = [1, 2, 3].map(() => client.call('public/get_all_live_instruments', {}, { timeoutMs: 20_000 }).catch((e) => e));
    await until(() => peer.requests.length >= 3);
    const t0 = Date.now();
    peer.drop();
    const results = await Promise.all(calls);
    expect(Date.now() - t0).toBeLessThan(2000);
    for (const r of results) {
      expect(r).toBeInstanceOf(ConnectionClosedError);
      expect(r.code).toBe('CONNECTION_CLOSED');
    }
    expect(client.pendingCount).toBe(0);
    expect(client.state).toBe('closed');
  });

  it('turns error answers into classes from the error table', async () => {
    await make().connect();
    peer.answer = (req) =>
      req.method === 'public/get_all_live_instruments'
        ? { error: { code: -32000, message: 'Rate limit exceeded', data: 'Retry after 1234 ms' } }
        : { error: { code: 14000, message: 'Authentication required' } };
    const rl = await client.call('public/get_all_live_instruments', {}).catch((e) => e);
    expect(rl).toBeInstanceOf(RateLimitError);
    expect([rl.code, rl.rpcCode, rl.retryAfterMs]).toEqual(['RATE_LIMITED', -32000, 1234]);
    const auth = await client.call('cancel_all', { subaccount_id: 1, nonce: '1', signer: '0x' + '1'.repeat(40), signature: '0x', signature_expiry_sec: 1 }).catch((e) => e);
    expect(auth).toBeInstanceOf(AuthError);
    expect([auth.code, auth.rpcCode]).toEqual(['AUTH_REQUIRED', 14000]);
  });

  it('refuses a method on a transport the tables do not list', async () => {
    await make().connect();
    const err = await client.call('order', {} as never, { transport: 'http' }).catch((e) => e);
    expect(err.code).toBe('USAGE');
  });

  it('rejects connect with a ConnectError when nothing listens', async () => {
    const url = peer.url;
    await peer.close();
    const c = createClient({ wsUrl: url, reconnect: false });
    const err = await c.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect(c.state).toBe('closed');
    peer = await startPeer();
  });
});

describe('faults on the wire are reported, not thrown', () => {
  it('garbage, unknown ids, unknown channels and binary frames', async () => {
    await make().connect();
    const ws = [...peer.sockets][0]!;
    ws.send('this is not json {');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 987654, result: 1 }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: 'trades.NOPE', data: [] } }));
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await until(() => errors.length >= 4);
    expect(errors.map((e) => (e as ProtocolError).fault)).toEqual(['garbage', 'unknown-id', 'unknown-channel', 'binary']);
    expect(errors.every((e) => e.code === 'PROTOCOL')).toBe(true);
    const r = await client.call('public/getRateLimits', {});
    expect(r.remaining_non_matching.remainingPoints).toBe(25);
  });
});

describe('subscriptions', () => {
  it('one wire subscription per channel however many handlers', async () => {
    await make().connect();
    const address = channels.orderbook({ instrument_name: 'ETH-PERP', group: 1, depth: 10 });
    const a: number[] = [];
    const b: number[] = [];
    const [sa, sb] = await Promise.all([client.subscribe(address, (p) => a.push(p.publish_id)), client.subscribe(address, (p) => b.push(p.publish_id))]);
    expect(peer.subscribeBatches).toEqual([[address]]);
    peer.push(address, book(1));
    await until(() => a.length === 1 && b.length === 1);
    await sa.unsubscribe();
    expect(peer.requests.filter((r) => r.method === 'unsubscribe')).toHaveLength(0);
    peer.push(address, book(2));
    await until(() => b.length === 2);
    expect(a).toEqual([1]);
    await sb.unsubscribe();
    expect(peer.requests.filter((r) => r.method === 'unsubscribe').map((r) => r.params.channels)).toEqual([[address]]);
    expect(errors).toEqual([]);
  });

  it('array channels hand over the pushed array', async () => {
    await make().connect();
    const got: unknown[] = [];
    await client.subscribe('trades.ETH-PERP', (trades) => got.push(trades.length));
    peer.push('trades.ETH-PERP', []);
    await until(() => got.length === 1);
    expect(got).toEqual([0]);
  });

  it('a refused subscription rejects and leaves nothing behind', async () => {
    await make().connect();
    peer.refuse.add('1.orders');
    const err = await client.subscribe('1.orders', () => {}).catch((e) => e);
    expect(err.code).toBe('SUBSCRIBE_REFUSED');
    expect(client.subscriptions).toEqual([]);
  });

  it('rejects an address that matches no channel at once', async () => {
    await make().connect();
    const err = await client.subscribe('nope' as never, () => {}).catch((e) => e);
    expect(err.code).toBe('USAGE');
  });
});

describe('validation modes', () => {
  const bad = { instrument_name: 'ETH-PERP', publish_id: -1, timestamp: 1, bids: [], asks: [] };
  for (const [mode, delivered, reported] of [
    ['off', 2, 0],
    ['warn', 2, 1],
    ['strict', 1, 1],
  ] as const) {
    it(`${mode}: bad payload ${delivered === 2 ? 'delivered' : 'dropped'}, ${reported ? 'reported' : 'not reported'}`, async () => {
      await make({ validate: mode }).connect();
      const got: unknown[] = [];
      await client.subscribe('orderbook.ETH-PERP.1.10', (p) => got.push(p));
      peer.push('orderbook.ETH-PERP.1.10', bad);
      peer.push('orderbook.ETH-PERP.1.10', book(5));
      await until(() => got.length === delivered && (got.at(-1) as { publish_id: number }).publish_id === 5);
      expect(reports).toHaveLength(reported);
      if (reported) {
        expect(reports[0]).toMatchObject({ target: 'orderbook.ETH-PERP.1.10', channel: 'orderbook', dropped: mode === 'strict' });
        expect(reports[0]!.failures[0]).toMatchObject({ pointer: '/publish_id', rule: 'minimum' });
        expect(reports[0]!.error.code).toBe('VALIDATION_FAILED');
      }
    });
  }

  it('a handler that throws is reported and the others still run', async () => {
    await make().connect();
    const got: number[] = [];
    await client.subscribe('orderbook.ETH-PERP.1.10', () => {
      throw new Error('boom');
    });
    await client.subscribe('orderbook.ETH-PERP.1.10', (p) => got.push(p.publish_id));
    peer.push('orderbook.ETH-PERP.1.10', book(3));
    await until(() => got.length === 1);
    expect(errors.map((e) => e.code)).toEqual(['HANDLER_FAILED']);
  });
});

describe('stream', () => {
  it('iterates payloads and unsubscribes when the loop ends', async () => {
    await make().connect();
    const s = client.stream('orderbook.ETH-PERP.1.10');
    await s.ready;
    for (let i = 1; i <= 3; i++) peer.push('orderbook.ETH-PERP.1.10', book(i));
    const seen: number[] = [];
    for await (const p of s) {
      seen.push(p.publish_id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([1, 2, 3]);
    await until(() => peer.requests.some((r) => r.method === 'unsubscribe'));
    expect(client.subscriptions).toEqual([]);
  });

  it('drops the oldest payload when the buffer is full, and says so', async () => {
    await make().connect();
    const overflows: number[] = [];
    client.on('overflow', (o) => overflows.push(o.dropped));
    const s = client.stream('orderbook.ETH-PERP.1.10', { bufferSize: 2 });
    await s.ready;
    for (let i = 1; i <= 5; i++) peer.push('orderbook.ETH-PERP.1.10', book(i));
    await until(() => overflows.length === 3);
    const a = await s.next();
    const b = await s.next();
    expect([a.value?.publish_id, b.value?.publish_id]).toEqual([4, 5]);
    await s.return!();
  });

  it("overflow 'error' ends the stream with a StreamOverflowError", async () => {
    await make().connect();
    const s = client.stream('orderbook.ETH-PERP.1.10', { bufferSize: 1, overflow: 'error' });
    await s.ready;
    let arrived = 0;
    await client.subscribe('orderbook.ETH-PERP.1.10', () => arrived++);
    peer.push('orderbook.ETH-PERP.1.10', book(1));
    peer.push('orderbook.ETH-PERP.1.10', book(2));
    await until(() => arrived === 2);
    const err = await s.next().catch((e) => e);
    expect(err.code).toBe('STREAM_OVERFLOW');
    expect(await s.next()).toEqual({ value: undefined, done: true });
  });
});

describe('reconnect', () => {
  it('resubscribes in one batch after each drop; every handler runs once per frame', async () => {
    await make().connect();
    const seen = new Map<string, number[]>();
    const addresses = ['orderbook.ETH-PERP.1.10', 'orderbook.BTC-PERP.1.10', 'trades.ETH-PERP'] as const;
    for (const a of addresses) {
      seen.set(a, []);
      await client.subscribe(a, (p: unknown) => seen.get(a)!.push(Array.isArray(p) ? p.length : (p as { publish_id: number }).publish_id));
    }
    for (let round = 1; round <= 5; round++) {
      peer.subscribeBatches.length = 0;
      peer.drop();
      await until(() => client.state === 'reconnecting', 2000, 'reconnecting');
      await until(() => client.state === 'open', 5000, 'open again');
      expect(peer.subscribeBatches).toEqual([[...addresses]]);
      peer.push('orderbook.ETH-PERP.1.10', book(round));
      await until(() => seen.get('orderbook.ETH-PERP.1.10')!.length === round);
    }
    expect(seen.get('orderbook.ETH-PERP.1.10')).toEqual([1, 2, 3, 4, 5]);
    expect(states.filter((s) => s === 'reconnecting')).toHaveLength(5);
    expect(client.pendingCount).toBe(0);
  });

  it('falls back one by one when the batch is refused', async () => {
    await make().connect();
    await client.subscribe('orderbook.ETH-PERP.1.10', () => {});
    await client.subscribe('trades.ETH-PERP', () => {});
    peer.refuseBatches = true;
    peer.subscribeBatches.length = 0;
    peer.drop();
    await until(() => client.state === 'reconnecting');
    await until(() => client.state === 'open');
    expect(peer.subscribeBatches).toEqual([['orderbook.ETH-PERP.1.10', 'trades.ETH-PERP'], ['orderbook.ETH-PERP.1.10'], ['trades.ETH-PERP']]);
  });

  it('a connection-limit frame becomes a ConnectionLimitError and a longer back-off', async () => {
    await make({ reconnect: { initialDelayMs: 10, maxDelayMs: 50, connectionLimitDelayMs: 400, jitter: 0 } }).connect();
    const delays: number[] = [];
    client.on('reconnect', (r) => delays.push(r.delayMs));
    const ws = [...peer.sockets][0]!;
    ws.send('connectionLimitExceeded: too many connections from 127.0.0.1');
    ws.close(1008);
    await until(() => delays.length === 1);
    const limit = errors.find((e) => e instanceof ConnectionLimitError)!;
    expect([limit.code, limit.rpcCode]).toEqual(['CONNECTION_LIMIT', -32100]);
    expect(delays[0]).toBeGreaterThanOrEqual(400);
    await until(() => client.state === 'open', 5000);
  });
});

describe('login and signatures', () => {
  it('logs in with a fresh personal_sign timestamp and again after a reconnect', async () => {
    const wallet = Wallet.createRandom();
    const logins: { wallet?: string; timestamp?: string; signature?: string }[] = [];
    peer.answer = (req) => {
      if (req.method === 'public/login') {
        logins.push(req.params);
        return recoverLoginSigner(req.params) === wallet.address ? { result: [7, 8] } : { error: { code: 14001, message: 'Invalid signature' } };
      }
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await make({ signer: wallet }).connect();
    expect(await client.login()).toEqual([7, 8]);
    await new Promise((r) => setTimeout(r, 5));
    peer.drop();
    await until(() => client.state === 'reconnecting');
    await until(() => client.state === 'open' && logins.length === 2);
    expect(logins[0]!.wallet).toBe(wallet.address);
    expect(Number(logins[1]!.timestamp)).toBeGreaterThan(Number(logins[0]!.timestamp));
    expect(Math.abs(Number(logins[1]!.timestamp) - Date.now())).toBeLessThan(5000);
  });

  it('signs order flow with the assumed EIP-712 layout through the action signer', async () => {
    const wallet = Wallet.createRandom();
    let signed: any;
    peer.answer = (req) => {
      if (req.method === 'order') {
        signed = req.params;
        return { result: { order: {}, trades: [] } };
      }
      if (req.method === 'public/get_all_live_instruments') return { result: [instrument('ETH-PERP', 'perp')] };
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await make({ signer: wallet, validate: 'off' }).connect();
    await client.order({ subaccount_id: 7, instrument_name: 'ETH-PERP', direction: 'buy', order_type: 'limit', amount: '1', limit_price: '3000', max_fee: '10' });
    expect(signed.signer).toBe(wallet.address);
    expect(recoverActionSigner('order', signed)).toBe(wallet.address);
    expect(signed.signature_expiry_sec).toBeGreaterThan(Date.now() / 1000);
  });

  it('a custom action signer replaces the default', async () => {
    let seen: any;
    peer.answer = (req) => (req.method === 'cancel_all' ? ((seen = req.params), { result: { cancelled_orders: 0 } }) : undefined);
    await make({ actionSigner: async (method, params) => ({ ...params, signer: '0x' + '2'.repeat(40), signature: `custom:${method}` }) }).connect();
    const r = await client.cancelAll({ subaccount_id: 3 });
    expect(r.cancelled_orders).toBe(0);
    expect(seen.signature).toBe('custom:cancel_all');
    expect(typeof seen.nonce).toBe('string');
  });
});

describe('HTTP', () => {
  let server: Server;
  let httpUrl: string;
  const seen: { url: string; headers: Record<string, unknown>; body: any }[] = [];
  /** When set, getRateLimits answers a result that breaks its schema. */
  let invalidLimits = false;
  beforeEach(async () => {
    seen.length = 0;
    invalidLimits = false;
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text);
        seen.push({ url: req.url!, headers: req.headers, body });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/v3/public/getRateLimits') return res.end(JSON.stringify({ jsonrpc: '2.0', id: null, result: invalidLimits ? { ...rateLimits, remaining_matching: 'plenty' } : rateLimits }));
        if (req.url === '/v3/private/get_subaccounts') {
          const proof = proofFromSources(body, req.headers);
          const ok = proof.timestamp && proof.signature && recoverLoginSigner(proof as never) === body.wallet;
          res.statusCode = ok ? 200 : 401;
          return res.end(JSON.stringify(ok ? { jsonrpc: '2.0', id: null, result: { subaccount_ids: [4, 5] } } : { jsonrpc: '2.0', id: null, error: { code: 14001, message: 'Invalid signature' } }));
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Method not found' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    httpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  it('public and private calls, with fresh signed headers per private request', async () => {
    const wallet = Wallet.createRandom();
    make({ httpUrl, signer: wallet });
    const r = await client.call('public/getRateLimits', {}, { transport: 'http' });
    expect(r.remaining_matching.remainingPoints).toBe(5);
    expect(await client.getSubaccounts()).toEqual([4, 5]);
    await new Promise((r) => setTimeout(r, 3));
    expect(await client.getSubaccounts()).toEqual([4, 5]);
    const [a, b] = seen.filter((s) => s.url === '/v3/private/get_subaccounts');
    expect(a!.headers['x-servicewallet']).toBe(wallet.address);
    expect(a!.headers['x-servicetimestamp']).not.toBe(b!.headers['x-servicetimestamp']);
  });

  it('a client used only over HTTP validates results: strict rejects, warn reports and delivers', async () => {
    invalidLimits = true;
    make({ httpUrl, validate: 'strict' });
    const err = await client.call('public/getRateLimits', {}, { transport: 'http' }).catch((e) => e);
    expect(err).toBeInstanceOf(PayloadValidationError);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(reports).toMatchObject([{ target: 'result of public/getRateLimits', channel: null, dropped: true }]);
    expect(reports[0]!.failures[0]).toMatchObject({ pointer: '/remaining_matching', rule: 'type object' });
    await client.close();
    make({ httpUrl, validate: 'warn' });
    const delivered = await client.call('public/getRateLimits', {}, { transport: 'http' });
    expect(delivered.remaining_matching).toBe('plenty');
    expect(reports).toMatchObject([{ target: 'result of public/getRateLimits', dropped: false }]);
  });

  it('an HTTP error body becomes the error class of its code', async () => {
    make({ httpUrl });
    const err = await client.call('public/get_all_live_instruments', {}).catch((e) => e);
    expect(err.code).toBe('RPC_METHOD_NOT_FOUND');
    expect(err.rpcCode).toBe(-32601);
  });
});

describe('limiter against a peer that counts', () => {
  it('keeps a burst within the matching window, as a fixed-window server counts it', async () => {
    // The peer counts like the server: a window opens with the first request that finds none open.
    let windowStart = -Infinity;
    let used = 0;
    let rejected = 0;
    peer.answer = (req) => {
      if (req.method === 'cancel_by_instrument') {
        const now = Date.now();
        if (now - windowStart >= 300) {
          windowStart = now;
          used = 0;
        }
        if (++used > 3) {
          rejected++;
          return { error: { code: -32000, message: 'Rate limit exceeded', data: `Retry after ${300 - (now - windowStart)} ms` } };
        }
        return { result: { cancelled_orders: 0 } };
      }
      if (req.method === 'public/get_all_live_instruments') return { result: [instrument('ETH-PERP', 'perp')] };
      if (req.method === 'public/login') return { result: [1] };
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    // Logged in, because before login every request draws on the per-IP public budget instead.
    await make({
      signer: Wallet.createRandom(),
      actionSigner: async (_m, p) => ({ ...p, signer: '0x' + '2'.repeat(40), signature: '0x' }),
      limiter: { limits: { matching: { points: 3, windowMs: 300 }, bucket_perp_spot: { capacity: 100, refillPerSecond: 100 } }, syncAfterLogin: false },
    }).connect();
    await client.login();
    const t0 = Date.now();
    const outcomes = await Promise.all(Array.from({ length: 9 }, () => client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-PERP' }).then(() => 'ok', (e) => e)));
    const elapsed = Date.now() - t0;
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
    expect(rejected).toBe(0);
    // 9 requests at 3 per 300 ms window, none refused by the counting peer: the third window opened
    // at least 600 ms after the first (the peer and the test share the clock). The upper bound only
    // catches a limiter that waits far too long; a loaded machine stays well within it.
    expect(elapsed).toBeGreaterThanOrEqual(2 * 300);
    expect(elapsed).toBeLessThan(15_000);
  });
});

describe('connection acceptance', () => {
  it('connect() rejects with the ConnectionLimitError when the server refuses the new socket', async () => {
    peer.refuseConnections = 'connectionLimitExceeded: {"code":-32100,"message":"Number of concurrent websocket clients limit exceeded"}';
    make();
    // A call made while connecting fails with it, rather than wait.
    let call: Promise<unknown> | null = null;
    client.on('state', (s) => s === 'connecting' && (call = client.call('public/getRateLimits', {}).catch((e) => e)));
    const err = await client.connect().catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionLimitError);
    expect([err.code, err.rpcCode]).toEqual(['CONNECTION_LIMIT', -32100]);
    expect(await call).toBe(err);
    expect(states).not.toContain('open');
    expect(client.state).toBe('closed');
  });

  it('while reconnecting, a refused socket is not reported open; the next accepted one is', async () => {
    await make({ reconnect: { initialDelayMs: 10, maxDelayMs: 20, connectionLimitDelayMs: 30, jitter: 0 } }).connect();
    peer.refuseConnections = 'connectionLimitExceeded: too many';
    states.length = 0;
    peer.drop();
    await until(() => peer.refused >= 2, 5000, 'two refused attempts');
    expect(states).toEqual(['reconnecting']);
    peer.refuseConnections = null;
    await until(() => client.state === 'open', 5000, 'open again');
    expect(states).toEqual(['reconnecting', 'open']);
    expect((await client.call('public/getRateLimits', {})).remaining_matching).toBeDefined();
  });

  it('a socket constructor that throws during a reconnect: reported, and the next attempt follows', async () => {
    const Real = (await import('ws')).default;
    let made = 0;
    const Flaky = function (this: unknown, url: string) {
      if (++made === 2) throw new Error('constructor refused');
      return new Real(url);
    } as unknown as WebSocketConstructor;
    await make({ WebSocket: Flaky }).connect();
    peer.drop();
    await until(() => made >= 3 && client.state === 'open', 5000, 'open after the throwing constructor');
    expect(errors.filter((e) => e.code === 'CONNECT_FAILED').map((e) => e.message)).toEqual([expect.stringContaining('constructor refused')]);
  });
});

describe('login is remembered only once it succeeded', () => {
  it('a failed login is not repeated after a reconnect', async () => {
    let logins = 0;
    peer.answer = (req) => {
      if (req.method === 'public/login') return logins++, { error: { code: 14001, message: 'Invalid signature' } };
      return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
    };
    await make({ signer: Wallet.createRandom() }).connect();
    expect(await client.login().catch((e) => e)).toBeInstanceOf(AuthError);
    peer.drop();
    await until(() => client.state === 'reconnecting');
    await until(() => client.state === 'open');
    await new Promise((r) => setTimeout(r, 50));
    expect(logins).toBe(1);
    expect(errors.filter((e) => e instanceof AuthError)).toEqual([]);
  });
});

describe('instrument types for the limiter come from the server', () => {
  const limiter = { limits: { matching: { points: 1000 }, bucket_perp_spot: { capacity: 1, refillPerSecond: 0.2 }, bucket_option: { capacity: 100, refillPerSecond: 100 } } };
  const signer = async (_m: string, p: Record<string, unknown>) => ({ ...p, signer: '0x' + '2'.repeat(40), signature: '0x' });
  const answer = (list: unknown[]) => (req: { method: string }) => {
    if (req.method === 'cancel_by_instrument') return { result: { cancelled_orders: 0 } };
    if (req.method === 'public/get_all_live_instruments') return { result: list };
    return req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined;
  };

  it('a name ending in -C that the server calls a perp draws on the perp bucket; the list is fetched once', async () => {
    peer.answer = answer([instrument('ODD-C', 'perp'), instrument('ETH-20261231-3000-C', 'option')]);
    await make({ actionSigner: signer, limiter }).connect();
    await client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ODD-C' });
    expect(client.limiter!.bucketIdFor('ODD-C')).toBe('bucket_perp_spot');
    expect(client.limiter!.bucketIdFor('ETH-20261231-3000-C')).toBe('bucket_option');
    // The perp bucket holds one: a second cancel waits for the refill (5 s) and meets its timeout.
    const second = await client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ODD-C' }, { timeoutMs: 200 }).catch((e) => e);
    expect(second).toBeInstanceOf(TimeoutError);
    for (let i = 0; i < 3; i++) await client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-20261231-3000-C' });
    expect(peer.requests.filter((r) => r.method === 'public/get_all_live_instruments')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('an instrument the server does not list: the perp/spot bucket, with a note once', async () => {
    peer.answer = answer([instrument('ETH-PERP', 'perp')]);
    await make({ actionSigner: signer, limiter }).connect();
    await client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'NEW-C' });
    expect(client.limiter!.bucketIdFor('NEW-C')).toBe('bucket_perp_spot');
    expect(errors.map((e) => e.code)).toEqual(['INSTRUMENT_TYPE_UNKNOWN']);
    expect(errors[0]!.message).toContain('NEW-C');
  });

  it('the limiter.instrumentType override still decides, without a fetch', async () => {
    peer.answer = answer([]);
    await make({ actionSigner: signer, limiter: { ...limiter, instrumentType: () => 'option' } }).connect();
    await client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-PERP' });
    await client.cancelByInstrument({ subaccount_id: 1, instrument_name: 'ETH-PERP' });
    expect(client.limiter!.bucketIdFor('ETH-PERP')).toBe('bucket_option');
    expect(peer.requests.filter((r) => r.method === 'public/get_all_live_instruments')).toHaveLength(0);
  });
});
