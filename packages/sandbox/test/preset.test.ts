/**
 * The derive-local preset: derive-ts's `local` network (HTTP with the method paths at the root, the
 * WebSocket on its own port at /ws, actions signed for chain 31337), on ports 0 here so that no test
 * needs a fixed port.
 */
import { describe, expect, it } from 'vitest';
import { deploymentsOf, defaultActionLayout, signAction, newNonce } from '@exchange-api/auth';
import { resolveOptions, SandboxOptionsError } from '../src/index';
import { assetOf } from '../src/market/instrument';
import { Client, newWallet, post, quietMarket, start } from './helpers';

const preset = { ...quietMarket, preset: 'derive-local' as const, port: 0, wsPort: 0 };

describe('the derive-local preset', () => {
  it("defaults to derive-ts's local ports and chain, and takes other ports", () => {
    const o = resolveOptions({ preset: 'derive-local' });
    expect([o.port, o.wsPort]).toEqual([8080, 3000]);
    expect(o.actionDeployments[0]!.separator).toBe(deploymentsOf('local')[0]!.separator);
    expect(resolveOptions({ preset: 'derive-local', port: 9000, wsPort: 9001 })).toMatchObject({
      port: 9000,
      wsPort: 9001,
    });
    expect(resolveOptions({}).wsPort).toBeNull();
    expect(() => resolveOptions({ preset: 'nope' as never })).toThrow(SandboxOptionsError);
    expect(() => resolveOptions({ preset: 'nope' as never })).toThrow(/preset: unknown preset "nope"/);
    expect(() => resolveOptions({ port: 4000, wsPort: 4000 })).toThrow(/wsPort: must differ from port/);
  });

  it('serves HTTP at the root and under /v3, and the WebSocket on its own port at /ws', async () => {
    const sb = await start(preset);
    const http = new URL(sb.httpUrl);
    const ws = new URL(sb.wsUrl);
    expect(ws.pathname).toBe('/ws');
    expect(ws.port).not.toBe(http.port);
    const root = await post(sb, '/public/get_time', {});
    expect(root.status).toBe(200);
    expect(typeof root.json.result).toBe('number');
    expect((await post(sb, '/v3/public/get_time', {})).json.result).toBeGreaterThanOrEqual(root.json.result);
    expect((await post(sb, '/public/nope', {})).json.error.code).toBe(-32601);
    const c = await Client.connect(sb.wsUrl);
    expect(typeof (await c.call('public/get_time', {}))).toBe('number');
    // The HTTP port keeps its /v3/ws too.
    const same = await Client.connect(`ws://${http.host}/v3/ws`);
    expect(typeof (await same.call('public/get_time', {}))).toBe('number');
  });

  it('takes an order signed for chain 31337 (the local deployment)', async () => {
    const sb = await start(preset);
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const local = deploymentsOf('local')[0]!;
    const asset = assetOf(quietMarket.instruments[0]!);
    const order = await signAction(
      w,
      'private/order',
      {
        subaccount_id: sub!,
        nonce: newNonce(),
        signature_expiry_sec: Math.floor(Date.now() / 1000) + 600,
        instrument_name: 'TEST-PERP',
        direction: 'buy',
        amount: '0.1',
        limit_price: '90',
        max_fee: '10',
      },
      {
        layout: { ...defaultActionLayout, deployment: local },
        instrument: { base_asset_address: asset.address, base_asset_sub_id: asset.subId },
      },
    );
    const placed = await c.call('private/order', order);
    expect(placed.order.order_status).toBe('open');
  });
});
