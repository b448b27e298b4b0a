import { describe, expect, it } from 'vitest';
import { errorTable } from '@exchange-api/types';
import { validators } from '@exchange-api/validators';
import { Client, control, HANG_MS, newWallet, post, signed, start } from './helpers';
import { within } from './peers';

const hint = /^Retry after [0-9]+ ms$/;
const limitPrefix = (errorTable.codes.find((c) => c.code === -32100) as { textFramePrefix: string }).textFramePrefix;

/** A client the connection limit admitted: a refused one (the limit's frame first) is tried again, up to a bound. */
async function admitted(url: string): Promise<Client> {
  for (let i = 0; i < 50; i++) {
    const c = await Client.connect(url);
    c.send(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'test.admitted' }));
    // The first frame is either the answer (admitted) or the limit's frame (refused, then closed).
    if (!(await c.next(() => true)).text.startsWith(limitPrefix)) return c;
    await c.whenClosed;
  }
  throw new Error('the connection limit never freed a slot');
}

describe('tier 1 windows', () => {
  it('rejects at once with -32000 and the hint, and resets after the window (per IP before login)', async () => {
    // A window no loaded machine outlasts; the sandbox clock, moved by the control plane, ends it.
    const sb = await start({ control: true, limits: { public: { points: 3, windowMs: 60_000 } } });
    const c = await Client.connect(sb.wsUrl);
    for (let i = 0; i < 3; i++) expect((await c.request('public/getRateLimits', {})).result).toBeDefined();
    // At once: a request held until the window ends would take a minute and fail the request's bound.
    const r = await c.request('public/getRateLimits', {});
    expect(r.error).toEqual({ code: -32000, message: 'Rate limit exceeded', data: expect.stringMatching(hint) });
    // A second connection from the same IP shares the budget.
    const d = await Client.connect(sb.wsUrl);
    expect((await d.request('subscribe', { channels: [] })).error.code).toBe(-32000);
    await control(sb, 'advance', { ms: Number(/([0-9]+)/.exec(r.error.data)![1]) });
    expect((await c.request('public/getRateLimits', {})).result.remaining_non_matching.consumedPoints).toBe(1);
  });

  it('keys by wallet after login: every connection of a wallet shares one budget', async () => {
    const sb = await start({ limits: { non_matching: { points: 4, windowMs: 5000 } } });
    const w = newWallet();
    const a = await Client.connect(sb.wsUrl);
    const b = await Client.connect(sb.wsUrl);
    await a.login(w);
    await b.login(w);
    await a.call('subscribe', { channels: [] });
    await b.call('subscribe', { channels: [] });
    await a.call('subscribe', { channels: [] });
    await b.call('subscribe', { channels: [] });
    expect((await a.request('subscribe', { channels: [] })).error.code).toBe(-32000);
    // Another wallet is unaffected.
    const c = await Client.connect(sb.wsUrl);
    await c.login(newWallet());
    expect((await c.request('subscribe', { channels: [] })).result).toBeDefined();
  });

  it(
    'shares the matching budget across order, replace, cancel, cancel_by_instrument, ' +
      'cancel_by_nonce; cancel_all has its own',
    async () => {
      const sb = await start({
        limits: { matching: { points: 5, windowMs: 10_000 }, cancel_all: { points: 2, windowMs: 10_000 } },
        market: { intervalMs: 60_000 },
      });
      const w = newWallet();
      const c = await Client.connect(sb.wsUrl);
      const [sub] = await c.login(w);
      const order = await c.call(
        'private/order',
        await signed(w, 'private/order', {
          subaccount_id: sub!,
          instrument_name: 'ETH-PERP',
          direction: 'buy',
          order_type: 'limit',
          amount: '0.1',
          limit_price: '1000',
          max_fee: '1',
        }),
      );
      await c.call(
        'private/replace',
        await signed(w, 'private/replace', {
          subaccount_id: sub!,
          instrument_name: 'ETH-PERP',
          direction: 'buy',
          order_type: 'limit',
          amount: '0.1',
          limit_price: '1001',
          max_fee: '1',
          order_id_to_cancel: order.order.order_id,
        }),
      );
      expect(
        (
          await c.request(
            'private/cancel',
            await signed(w, 'private/cancel', {
              subaccount_id: sub!,
              instrument_name: 'ETH-PERP',
              order_id: order.order.order_id,
            }),
          )
        ).error.code,
      ).toBe(11001);
      await c.call(
        'private/cancel_by_instrument',
        await signed(w, 'private/cancel_by_instrument', { subaccount_id: sub!, instrument_name: 'BTC-PERP' }),
      );
      expect(
        (
          await c.request(
            'private/cancel_by_nonce',
            await signed(w, 'private/cancel_by_nonce', {
              subaccount_id: sub!,
              instrument_name: 'BTC-PERP',
              nonce: '1',
            }),
          )
        ).error.code,
      ).toBe(11001);
      const sixth = await c.request(
        'private/cancel_by_nonce',
        await signed(w, 'private/cancel_by_nonce', {
          subaccount_id: sub!,
          instrument_name: 'BTC-PERP',
          nonce: '1',
        }),
      );
      expect(sixth.error.code).toBe(-32000);
      expect(sixth.error.data).toMatch(hint);
      // cancel_all draws on its own per-(wallet, method) budget.
      // It cancels the one open order (the replacement) and answers ok, as the clients read it.
      expect(await c.call('private/cancel_all', await signed(w, 'private/cancel_all', { subaccount_id: sub! }))).toBe(
        'ok',
      );
      await c.call('private/cancel_all', await signed(w, 'private/cancel_all', { subaccount_id: sub! }));
      expect(
        (await c.request('private/cancel_all', await signed(w, 'private/cancel_all', { subaccount_id: sub! }))).error
          .code,
      ).toBe(-32000);
      const report = await c.call('public/getRateLimits', {});
      expect(report.remaining_matching).toMatchObject({ remainingPoints: 0, consumedPoints: 6 });
      expect(report.remaining_matching.msBeforeNext).toBeGreaterThan(0);
      expect(report.remaining_per_endpoint.cancel_all).toMatchObject({ remainingPoints: 0 });
    },
  );

  it('cancel_by_label uses the matching budget for one instrument, else its own', async () => {
    const sb = await start({ market: { intervalMs: 60_000 } });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    await c.call(
      'private/cancel_by_label',
      await signed(w, 'private/cancel_by_label', { subaccount_id: sub!, label: 'x', instrument_name: 'ETH-PERP' }),
    );
    let r = await c.call('public/getRateLimits', {});
    expect(r.remaining_matching.consumedPoints).toBe(1);
    expect(r.remaining_per_endpoint.cancel_by_label.consumedPoints).toBe(0);
    await c.call(
      'private/cancel_by_label',
      await signed(w, 'private/cancel_by_label', { subaccount_id: sub!, label: 'x' }),
    );
    r = await c.call('public/getRateLimits', {});
    expect(r.remaining_matching.consumedPoints).toBe(1);
    expect(r.remaining_per_endpoint.cancel_by_label.consumedPoints).toBe(1);
  });

  it('public/get_all_live_instruments costs no point', async () => {
    const sb = await start();
    const c = await Client.connect(sb.wsUrl);
    for (let i = 0; i < 30; i++) await c.call('public/get_all_live_instruments', {});
    const r = await c.call('public/getRateLimits', {});
    expect(r.remaining_non_matching.consumedPoints).toBe(1);
  });

  it(
    'getRateLimits: exact shape, one non-matching point per call on both transports, ' +
      'remaining_connections on WebSocket only',
    async () => {
      const sb = await start({
        limits: { public: { points: 10, windowMs: 5000 }, non_matching: { points: 7, windowMs: 5000 } },
      });
      const c = await Client.connect(sb.wsUrl);
      const first = await c.call('public/getRateLimits', null);
      expect(validators.results['public/getRateLimits'](first)).toBe(true);
      expect(Object.keys(first).sort()).toEqual([
        'remaining_connections',
        'remaining_matching',
        'remaining_non_matching',
        'remaining_per_endpoint',
      ]);
      expect(first.remaining_non_matching).toEqual({
        remainingPoints: 9,
        msBeforeNext: 0,
        consumedPoints: 1,
        isFirstInDuration: true,
      });
      expect(first.remaining_connections).toMatchObject({ remainingPoints: 3, consumedPoints: 1 });
      expect(Object.keys(first.remaining_per_endpoint)).toContain('cancel_all');
      const second = await c.call('public/getRateLimits', {});
      expect(second.remaining_non_matching).toMatchObject({
        remainingPoints: 8,
        consumedPoints: 2,
        isFirstInDuration: false,
      });
      const http = await post(sb, '/v3/public/getRateLimits', {});
      expect(validators.results['public/getRateLimits'](http.json.result)).toBe(true);
      expect(http.json.result.remaining_connections).toBeUndefined();
      expect(http.json.result.remaining_non_matching.consumedPoints).toBe(3);
      // After login the wallet's budget is reported, with its configured size.
      await c.login(newWallet());
      const wallet = await c.call('public/getRateLimits', {});
      expect(wallet.remaining_non_matching).toMatchObject({ remainingPoints: 6, consumedPoints: 1 });
    },
  );

  it('advance moves the windows', async () => {
    const sb = await start({ control: true, limits: { public: { points: 2, windowMs: 60_000 } } });
    const c = await Client.connect(sb.wsUrl);
    await c.call('public/getRateLimits', {});
    await c.call('public/getRateLimits', {});
    expect((await c.request('public/getRateLimits', {})).error.code).toBe(-32000);
    await control(sb, 'advance', { ms: 30_000 });
    const r = await c.request('public/getRateLimits', {});
    expect(Number(/([0-9]+)/.exec(r.error.data)![1])).toBeLessThanOrEqual(30_000);
    await control(sb, 'advance', { ms: 31_000 });
    expect((await c.call('public/getRateLimits', {})).remaining_non_matching.consumedPoints).toBe(1);
  });
});

describe('tier 2 bucket', () => {
  it('limits order flow per (wallet, instrument), refilling continuously', async () => {
    const sb = await start({
      control: true,
      limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 2, refillPerSecond: 1 } },
      market: { intervalMs: 60_000 },
    });
    const w = newWallet();
    const c = await Client.connect(sb.wsUrl);
    const [sub] = await c.login(w);
    const order = (instrument: string) =>
      signed(w, 'private/order', {
        subaccount_id: sub!,
        instrument_name: instrument,
        direction: 'buy',
        order_type: 'limit',
        amount: '0.01',
        limit_price: instrument === 'BTC-PERP' ? '1000' : '100',
        max_fee: '100',
      });
    expect((await c.request('private/order', await order('ETH-PERP'))).result).toBeDefined();
    expect((await c.request('private/order', await order('ETH-PERP'))).result).toBeDefined();
    const refused = await order('ETH-PERP');
    const third = await c.request('private/order', refused);
    expect(third.error.code).toBe(-32000);
    expect(third.error.data).toMatch(hint);
    // Another instrument has its own bucket.
    expect((await c.request('private/order', await order('BTC-PERP'))).result).toBeDefined();
    await control(sb, 'advance', { ms: 1000 });
    // The refused order did nothing, its nonce included: sent again after the wait, the same signed order is taken.
    expect((await c.request('private/order', refused)).result.order.order_status).toBe('open');
    expect((await c.request('private/order', await order('ETH-PERP'))).error.code).toBe(-32000);
  });
});

describe('connections', () => {
  it('the fifth concurrent client gets the text frame, -32100 and is closed', async () => {
    const sb = await start();
    const four = await Promise.all([1, 2, 3, 4].map(() => Client.connect(sb.wsUrl)));
    const fifth = await Client.connect(sb.wsUrl);
    const frame = await fifth.next((f) => f.text.startsWith(limitPrefix));
    const body = JSON.parse(frame.text.slice(limitPrefix.length));
    expect(body.error).toEqual({ code: -32100, message: 'Number of concurrent websocket clients limit exceeded' });
    // Exactly the connection-limit-frame assumption: the prefix, one space, a JSON-RPC response with id null; nothing
    // else.
    const message = errorTable.codes.find((c) => c.code === -32100)!.message;
    expect(frame.text).toBe(
      `${limitPrefix} ${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32100, message } })}`,
    );
    expect(await within(fifth.whenClosed, HANG_MS)).toMatchObject({ code: 1008 });
    expect(fifth.frames).toHaveLength(1);
    // The four keep working, and a slot frees when one leaves.
    expect((await four[0]!.call('public/get_all_live_instruments', {})).length).toBeGreaterThan(0);
    four[3]!.close();
    await four[3]!.whenClosed;
    // The server frees the slot when it sees the socket close, which may come a moment after the client
    // does: a connection refused meanwhile is tried again (each try waits on the server's answer).
    const again = await admitted(sb.wsUrl);
    expect((await again.call('public/getRateLimits', {})).remaining_connections.remainingPoints).toBe(0);
  });

  it(
    'remaining_connections.isFirstInDuration is true only on the connection that ' + "opened the IP's current run",
    async () => {
      const sb = await start();
      const a = await Client.connect(sb.wsUrl);
      expect((await a.call('public/getRateLimits', {})).remaining_connections).toMatchObject({
        consumedPoints: 1,
        isFirstInDuration: true,
      });
      const b = await Client.connect(sb.wsUrl);
      expect((await a.call('public/getRateLimits', {})).remaining_connections).toMatchObject({
        consumedPoints: 2,
        isFirstInDuration: true,
      });
      expect((await b.call('public/getRateLimits', {})).remaining_connections).toMatchObject({
        consumedPoints: 2,
        isFirstInDuration: false,
      });
      a.close();
      await a.whenClosed;
      // b is alone now (once the server has seen a go), but it did not open the run: not first.
      let alone = await b.call('public/getRateLimits', {});
      for (let i = 0; i < 50 && alone.remaining_connections.consumedPoints > 1; i++)
        alone = await b.call('public/getRateLimits', {});
      expect(alone.remaining_connections).toMatchObject({ consumedPoints: 1, isFirstInDuration: false });
      // Budgets this request did not spend on are peeked: never the first request of their window.
      expect(alone.remaining_matching.isFirstInDuration).toBe(false);
      for (const budget of Object.values(alone.remaining_per_endpoint) as Array<{ isFirstInDuration: boolean }>)
        expect(budget.isFirstInDuration).toBe(false);
    },
  );
});
