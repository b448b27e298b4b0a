import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { createClient, type ExchangeClient } from '@exchange-api/client';
import { methodTable } from '@exchange-api/types';

describe("the client's generated surface against the sandbox", () => {
  let sandbox: Sandbox;
  let client: ExchangeClient;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    client = createClient({
      wsUrl: sandbox.wsUrl,
      httpUrl: sandbox.httpUrl,
      signer: Wallet.createRandom(),
      validate: 'strict',
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('has one rpc member per method of the tables, named by operation id', () => {
    expect(Object.keys(client.rpc).sort()).toEqual(methodTable.map((m) => m.id).sort());
  });

  it('rpc calls go over the wire typed and validated', async () => {
    const limits = await client.rpc.publicGetRateLimits({});
    expect(limits.remaining_non_matching.remainingPoints).toBeGreaterThan(0);
    const instruments = await client.rpc.publicGetAllLiveInstruments({});
    expect(instruments).toContain('ETH-PERP');
  });

  it('the generated order-flow helpers sign, send and get the assumed result', async () => {
    const [subaccount] = await client.login();
    const { order } = await client.order({
      subaccount_id: subaccount!,
      instrument_name: 'ETH-PERP',
      direction: 'buy',
      order_type: 'limit',
      amount: '0.01',
      limit_price: '100',
      max_fee: '10',
    });
    expect(order.order_status).toBe('open');
    const cancelled = await client.rpc.cancel({
      subaccount_id: subaccount!,
      instrument_name: 'ETH-PERP',
      order_id: order.order_id,
    });
    expect(cancelled.order_status).toBe('cancelled');
  });
});
