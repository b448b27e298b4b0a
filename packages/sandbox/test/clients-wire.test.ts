/**
 * The wire forms the public clients use that the document's own framing does not: requests without
 * `jsonrpc` (ccxt, derive-ts), a GET and a null body over HTTP (ccxt, derive-ts), and the clients'
 * login header names (ccxt's X-Lyra*, derive-ts's and derive-py's X-Derive*).
 */
import { describe, expect, it } from 'vitest';
import { signLogin } from '@exchange-api/auth';
import { Client, newWallet, post, signed, start } from './helpers';

describe("the public clients' wire forms", () => {
  it(
    'answers a request without jsonrpc, echoing a numeric id as a number; refuses ' + 'a jsonrpc other than 2.0',
    async () => {
      const sb = await start({ market: { intervalMs: 60_000 } });
      const c = await Client.connect(sb.wsUrl);
      // derive-ts: JSON.stringify({ id, method, params }); it matches replies only when the id is a number.
      c.send(JSON.stringify({ id: 41, method: 'public/get_time', params: {} }));
      c.send(JSON.stringify({ jsonrpc: '1.0', id: 42, method: 'public/get_time', params: {} }));
      await c.until(() => c.frames.some((f) => f.json?.id === 42));
      const ok = c.frames.find((f) => f.json?.id === 41)!;
      expect(ok.text).toMatch(/"id":41[,}]/);
      expect(ok.json).toMatchObject({ jsonrpc: '2.0', id: 41, result: expect.any(Number) });
      const refused = c.frames.find((f) => f.json?.id === 42)!.json;
      expect(refused.error).toMatchObject({ code: -32600, data: expect.stringMatching(/jsonrpc: must be "2.0"/) });
    },
  );

  it('serves a GET of a method path and a null body as empty params (ccxt GETs get_all_currencies)', async () => {
    const sb = await start({ market: { intervalMs: 60_000 } });
    const get = await fetch(`${sb.httpUrl}/v3/public/get_all_currencies`);
    expect(get.status).toBe(200);
    const body = await get.json();
    expect(body.result.map((c: { currency: string }) => c.currency)).toEqual(['ETH', 'BTC', 'USDC']);
    const time = await post(sb, '/v3/public/get_time', 'null');
    expect(time.status).toBe(200);
    expect(Math.abs(time.json.result - Date.now())).toBeLessThan(60_000);
  });

  it.each([
    ['ccxt', 'X-LyraWallet', 'X-LyraTimestamp', 'X-LyraSignature'],
    ['derive-ts', 'X-DeriveWallet', 'X-DeriveTimestamp', 'X-DeriveSignature'],
  ])("logs in over HTTP with %s's header names", async (_client, wallet, timestamp, signature) => {
    const sb = await start({ market: { intervalMs: 60_000 } });
    const w = newWallet();
    const proof = await signLogin(w);
    const r = await post(
      sb,
      '/v3/private/get_subaccounts',
      { wallet: w.address },
      { [wallet]: proof.wallet, [timestamp]: proof.timestamp, [signature]: proof.signature },
    );
    expect(r.status).toBe(200);
    expect(r.json.result.subaccount_ids).toHaveLength(2);
    const preflight = await fetch(`${sb.httpUrl}/v3/private/get_subaccounts`, { method: 'OPTIONS' });
    expect(preflight.headers.get('access-control-allow-headers')).toContain(signature);
  });

  it(
    "takes an order over HTTP with the login in the headers and the action's " + 'signer and signature in the body',
    async () => {
      const sb = await start({ market: { intervalMs: 60_000 } });
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const order = await signed(w, 'private/order', {
        subaccount_id: sub!,
        instrument_name: 'ETH-PERP',
        direction: 'buy',
        amount: '0.1',
        limit_price: '1000',
        max_fee: '10',
      });
      const proof = await signLogin(w);
      const r = await post(sb, '/v3/private/order', order, {
        'X-DeriveWallet': proof.wallet,
        'X-DeriveTimestamp': proof.timestamp,
        'X-DeriveSignature': proof.signature,
      });
      expect([r.status, r.json.result?.order?.order_status]).toEqual([200, 'open']);
    },
  );
});
