/**
 * A burst of order flow across three instruments, several times the budgets, against the sandbox with
 * short windows (same rules): with the limiter on, no -32000 and about the time the budgets allow;
 * with it off, the server's rejections arrive as RateLimitErrors. With the client's window and the
 * server's disagreeing (forced here; a network delay or a busy machine does it at a boundary), the
 * limiter absorbs the server's hinted refusals: it waits for the hint and sends again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import WebSocket from 'ws';
import {
  createClient,
  RateLimitError,
  type ExchangeClient,
  type LimitOverrides,
  type WebSocketConstructor,
} from '@exchange-api/client';

const limits = {
  matching: { points: 5, windowMs: 500 },
  bucket_perp_spot: { capacity: 3, refillPerSecond: 4 },
  bucket_option: { capacity: 3, refillPerSecond: 4 },
};
const instruments = [
  { instrument_name: 'ETH-PERP', amount: '0.01', limit_price: '100' },
  { instrument_name: 'BTC-PERP', amount: '0.001', limit_price: '1000' },
  { instrument_name: 'ETH-20261231-3000-C', amount: '0.1', limit_price: '1' },
];
const PER_INSTRUMENT = 10;

let sb: Sandbox | null = null;
let client: ExchangeClient | null = null;
afterEach(async () => {
  await client?.close();
  await sb?.close();
  client = sb = null;
});

/** The -32000 answers the client's sockets received (a real `ws` socket that also counts them). */
let refusals = 0;
class CountingSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    this.on('message', (data) => {
      if (/"code":\s*-32000\b/.test(String(data))) refusals++;
    });
  }
}

async function burst(limiterOn: boolean, clientLimits: LimitOverrides = limits, syncAfterLogin = true) {
  sb = await startSandbox({ port: 0, seed: 11, limits });
  refusals = 0;
  client = createClient({
    wsUrl: sb.wsUrl,
    WebSocket: CountingSocket as unknown as WebSocketConstructor,
    signer: Wallet.createRandom(),
    validate: 'off',
    limiter: limiterOn ? { limits: clientLimits, syncAfterLogin } : false,
    timeoutMs: 20_000,
  });
  await client.connect();
  const [sub] = await client.login();
  const t0 = Date.now();
  const outcomes = await Promise.all(
    Array.from({ length: PER_INSTRUMENT }, () => instruments)
      .flat()
      .map((i) =>
        client!
          .order({
            subaccount_id: sub!,
            direction: 'buy',
            order_type: 'limit',
            max_fee: '1000',
            time_in_force: 'gtc',
            ...i,
          })
          .then(
            () => 'ok' as const,
            (e: unknown) => e,
          ),
      ),
  );
  return { outcomes, elapsed: Date.now() - t0 };
}

describe('client-side limiter against the sandbox', () => {
  it('with the limiter on: zero -32000 answers, in about the time the budgets allow', async () => {
    const { outcomes, elapsed } = await burst(true);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
    // 30 orders at 5 per 500 ms window: six windows, the last opening 2500 ms after the first.
    // The per-instrument buckets (3, then 4/s for 10 each) take ~1750 ms, so the windows bind.
    // With none refused, the server (same process, same clock) saw six windows: the lower bound holds
    // by construction. A limiter that waits far too long meets the test's own bound.
    const allowed =
      (Math.ceil((instruments.length * PER_INSTRUMENT) / limits.matching.points) - 1) * limits.matching.windowMs;
    expect(elapsed).toBeGreaterThanOrEqual(allowed - 50);
  });

  it(
    "with the client's window looser than the server's: each hinted refusal absorbed, " + 'none reaches the caller',
    async () => {
      // 6 a window where the server takes 5 (and no resync after login, which would correct it): the
      // server refuses a request of the windows the client fills.
      const looser = { ...limits, matching: { points: 6, windowMs: limits.matching.windowMs } };
      const { outcomes } = await burst(true, looser, false);
      expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
      expect(refusals).toBeGreaterThan(0);
    },
  );

  it('with the limiter off: the server rejects, as RateLimitErrors with the retry hint', async () => {
    const { outcomes } = await burst(false);
    const rejected = outcomes.filter((o): o is RateLimitError => o instanceof RateLimitError);
    expect(refusals).toBe(rejected.length);
    expect(rejected.length).toBeGreaterThan(instruments.length * PER_INSTRUMENT - 2 * limits.matching.points - 1);
    for (const r of rejected) {
      expect([r.code, r.rpcCode]).toEqual(['RATE_LIMITED', -32000]);
      expect(r.retryAfterMs).toBeGreaterThanOrEqual(0);
    }
    expect(outcomes.filter((o) => o !== 'ok' && !(o instanceof RateLimitError))).toEqual([]);
  });
});

describe('limiter resync after login (msBeforeNext 0 while points remain)', () => {
  async function overBudget(
    sandboxLimits: LimitOverrides | undefined,
    clientLimits: LimitOverrides | undefined,
    calls: number,
  ) {
    sb = await startSandbox({ port: 0, seed: 12, ...(sandboxLimits ? { limits: sandboxLimits } : {}) });
    client = createClient({
      wsUrl: sb.wsUrl,
      signer: Wallet.createRandom(),
      validate: 'off',
      timeoutMs: 30_000,
      ...(clientLimits ? { limiter: { limits: clientLimits } } : {}),
    });
    await client.connect();
    await client.login();
    const outcomes = await Promise.all(
      Array.from({ length: calls }, () =>
        client!.call('unsubscribe', { channels: ['trades.ETH-PERP'] }).then(
          () => 'ok' as const,
          (e: unknown) => e,
        ),
      ),
    );
    return outcomes.filter((o) => o !== 'ok');
  }

  it('default client, default sandbox: 40 calls after login (budget 25 per 5 s), not one -32000', async () => {
    expect(await overBudget(undefined, undefined, 40)).toEqual([]);
  });

  it('short windows: 45 calls at 10 per second, not one -32000', async () => {
    const limits = { non_matching: { points: 10, windowMs: 1000 } };
    expect(await overBudget(limits, limits, 45)).toEqual([]);
  });
});
