/**
 * The client against the sandbox over real sockets: every channel, login, both transports, order
 * flow seen on the private channels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import {
  createClient,
  type ExchangeClient,
  type ValidationReport,
  type ClientError,
  AuthError,
} from '@exchange-api/client';
import { channelTable, channels, fillAddress, type ChannelAddress } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { control, roomyLimits, until } from './helpers';

let sb: Sandbox;
let client: ExchangeClient;
const wallet = Wallet.createRandom();
const sessionKey = Wallet.createRandom();
const reports: ValidationReport[] = [];
const errors: ClientError[] = [];

beforeAll(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 7,
    control: true,
    limits: roomyLimits,
    market: { intervalMs: 20 },
    sessionKeys: [{ address: sessionKey.address, wallet: wallet.address }],
  });
  client = createClient({
    wsUrl: sb.wsUrl,
    httpUrl: sb.httpUrl,
    signer: wallet,
    validate: 'strict',
    limiter: { limits: roomyLimits },
  });
  client.on('validation', (r) => reports.push(r));
  client.on('error', (e) => errors.push(e));
  await client.connect();
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

describe('client ↔ sandbox', () => {
  it('logs in with a fresh timestamp and gets the two subaccounts', async () => {
    const ids = await client.login();
    expect(ids).toHaveLength(2);
    expect(client.wallet).toBe(wallet.address);
  });

  it('every channel delivers typed, valid payloads', async () => {
    const [sub] = client.subaccountIds;
    const values: Record<string, string> = {
      instrument_name: 'ETH-PERP',
      group: '1',
      depth: '10',
      currency: 'ETH',
      subaccount_id: String(sub),
      interval: '100',
      instrument_type: 'perp',
      batch_status: 'Settled',
      wallet: wallet.address,
    };
    const got = new Map<string, unknown>();
    for (const ch of channelTable) {
      const address = fillAddress(ch.address, values) as ChannelAddress;
      await client.subscribe(address, (p) => {
        if (!got.has(ch.id)) got.set(ch.id, p);
      });
      await control(sb, 'push', { channel: address, generate: true });
    }
    await until(
      () => got.size === channelTable.length,
      60_000,
      `all ${channelTable.length} channels (got ${[...got.keys()].join(', ')})`,
    );
    for (const ch of channelTable) {
      const validate = validators.channels[ch.id as keyof typeof validators.channels] as (d: unknown) => boolean;
      expect(validate(got.get(ch.id)), ch.id).toBe(true);
      expect(Array.isArray(got.get(ch.id)), ch.id).toBe(ch.payload.array);
    }
    expect(reports).toEqual([]);
  });

  it('streams order books from the simulated market', async () => {
    const ids: number[] = [];
    for await (const book of client.stream(channels.orderbook({ instrument_name: 'BTC-PERP', group: 10, depth: 10 }))) {
      ids.push(book.publish_id);
      expect(book.bids.length).toBeGreaterThan(0);
      if (ids.length === 3) break;
    }
    expect(ids[2]!).toBeGreaterThan(ids[0]!);
  });

  it('calls over both transports', async () => {
    const ws = await client.call('public/getRateLimits', {}, { transport: 'ws' });
    const http = await client.call('public/getRateLimits', {}, { transport: 'http' });
    expect(ws.remaining_connections).toBeDefined();
    expect(http.remaining_non_matching.remainingPoints).toBeGreaterThan(0);
    expect(await client.getSubaccounts()).toEqual(client.subaccountIds);
    const instruments = await client.getAllLiveInstruments({ transport: 'http' });
    expect(instruments).toContain('ETH-PERP');
  });

  it('order flow shows on the private channels', async () => {
    const sub = client.subaccountIds[0]!;
    const orders: { order_id: string; order_status: string }[] = [];
    await client.subscribe(channels.subaccountOrders({ subaccount_id: sub }), (list) => orders.push(...list));
    const placed = await client.order({
      subaccount_id: sub,
      instrument_name: 'ETH-PERP',
      direction: 'buy',
      order_type: 'limit',
      amount: '0.1',
      limit_price: '100',
      max_fee: '10',
      time_in_force: 'gtc',
    });
    expect(placed.order.order_status).toBe('open');
    await until(
      () => orders.some((o) => o.order_id === placed.order.order_id && o.order_status === 'open'),
      60_000,
      'the open order',
    );
    const cancelled = await client.cancel({
      subaccount_id: sub,
      instrument_name: 'ETH-PERP',
      order_id: placed.order.order_id,
    });
    expect(cancelled.order_status).toBe('cancelled');
    await until(
      () => orders.some((o) => o.order_id === placed.order.order_id && o.order_status === 'cancelled'),
      60_000,
      'the cancelled order',
    );
    expect(reports).toEqual([]);
  });

  it('a session key logs in for its wallet and signs order flow', async () => {
    const c = createClient({
      wsUrl: sb.wsUrl,
      httpUrl: sb.httpUrl,
      signer: sessionKey,
      wallet: wallet.address,
      validate: 'strict',
      limiter: { limits: roomyLimits },
    });
    await c.connect();
    const ids = await c.login();
    expect(ids).toEqual(client.subaccountIds);
    expect(await c.getSubaccounts()).toEqual(ids);
    // The key signs the order's action for the wallet (owner); the cancel needs only the login.
    const placed = await c.order({
      subaccount_id: ids[0]!,
      instrument_name: 'ETH-PERP',
      direction: 'buy',
      amount: '0.1',
      limit_price: '100',
      max_fee: '10',
    });
    expect(placed.order).toMatchObject({ order_status: 'open', signer: sessionKey.address });
    expect(await c.cancelAll({ subaccount_id: ids[0]! })).toBe('ok');
    await c.close();
  });

  it('an action signed by a key the server does not know is refused with an AuthError', async () => {
    const other = Wallet.createRandom();
    const c = createClient({
      wsUrl: sb.wsUrl,
      signer: wallet,
      actionSigner: async (method, params) => {
        const { signAction } = await import('@exchange-api/auth');
        const instrument = await c.call('public/get_instrument', { instrument_name: String(params.instrument_name) });
        return signAction(other, method, params, { instrument, owner: wallet.address });
      },
    });
    await c.connect();
    await c.login();
    const err = await c
      .order({
        subaccount_id: c.subaccountIds[0]!,
        instrument_name: 'ETH-PERP',
        direction: 'buy',
        amount: '0.1',
        limit_price: '100',
        max_fee: '10',
      })
      .catch((e) => e);
    await c.close();
    expect(err).toBeInstanceOf(AuthError);
    expect([err.code, err.rpcCode]).toEqual(['AUTH_INVALID_ACTION_SIGNATURE', 14004]);
  });
});
