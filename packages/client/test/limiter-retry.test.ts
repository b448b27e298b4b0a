/**
 * The limiter absorbs a server/client window disagreement: a request it let through that the server
 * refuses with `-32000` and a retry hint is sent again once the hint has passed, a bounded number of
 * times (`rateLimitRetries`, `rateLimitRetryMaxMs`); what exceeds the bounds reaches the caller as a
 * RateLimitError. Against the scripted peer (WebSocket) and a loopback HTTP server; the hints are a
 * few ms, and every wait is on an answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimitError, TimeoutError, type LimiterOptions } from '../src/index';
import { rateLimits, useClientHarness } from './harness';

const t = useClientHarness();

/** A -32000 answer with the server's hint. */
const refusal = (ms: number) => ({ code: -32000, message: 'Rate limit exceeded', data: `Retry after ${ms} ms` });

/** Answer `public/get_time` with the refusals in `hints` first (one per request), then with the time. */
function refuseFirst(hints: number[]): void {
  t.peer.answer = (req) => {
    if (req.method === 'public/getRateLimits') return { result: rateLimits };
    if (req.method !== 'public/get_time') return undefined;
    const hint = hints.shift();
    return hint === undefined ? { result: 1_700_000_000_000 } : { error: refusal(hint) };
  };
}

const timeCalls = () => t.peer.requests.filter((r) => r.method === 'public/get_time').length;

async function connected(limiter: LimiterOptions | false = {}) {
  await t.make({ validate: 'off', limiter }).connect();
}

describe('a hinted -32000 on a request the limiter let through (WebSocket)', () => {
  it('is absorbed: the request goes again after the hint, and the caller gets the answer', async () => {
    refuseFirst([5, 3]);
    await connected();
    expect(await t.client.call('public/get_time', {})).toBe(1_700_000_000_000);
    expect(timeCalls()).toBe(3);
  });

  it('at most rateLimitRetries times (default 2): the third refusal reaches the caller', async () => {
    refuseFirst([2, 2, 2, 2]);
    await connected();
    const err = await t.client.call('public/get_time', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBe(2);
    expect(timeCalls()).toBe(3);
  });

  it('not when the hint is longer than rateLimitRetryMaxMs: the budget was spent elsewhere', async () => {
    refuseFirst([50]);
    await connected({ rateLimitRetryMaxMs: 20 });
    const err = await t.client.call('public/get_time', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(timeCalls()).toBe(1);
  });

  it('not with rateLimitRetries 0, and not with the limiter off (nothing it let through)', async () => {
    refuseFirst([2]);
    await connected({ rateLimitRetries: 0 });
    await expect(t.client.call('public/get_time', {})).rejects.toBeInstanceOf(RateLimitError);
    expect(timeCalls()).toBe(1);
    await t.client.close();
    refuseFirst([2]);
    await connected(false);
    await expect(t.client.call('public/get_time', {})).rejects.toBeInstanceOf(RateLimitError);
    expect(timeCalls()).toBe(2);
  });

  it("within the call's timeout: a retry that cannot wait for its hint in time times out", async () => {
    refuseFirst([900]);
    await connected({ rateLimitRetryMaxMs: 1000 });
    const err = await t.client.call('public/get_time', {}, { timeoutMs: 100 }).catch((e: unknown) => e);
    // The wait for the hint is the limiter's, bounded by the call's deadline: a TimeoutError, one request sent.
    expect(err).toBeInstanceOf(TimeoutError);
    expect(timeCalls()).toBe(1);
  });
});

describe('a hinted -32000 on a request the limiter let through (HTTP)', () => {
  let server: Server;
  let httpUrl: string;
  let hints: number[];
  let posts = 0;
  beforeEach(async () => {
    posts = 0;
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        posts++;
        const hint = hints.shift();
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify(
            hint === undefined
              ? { jsonrpc: '2.0', id: null, result: 1_700_000_000_000 }
              : { jsonrpc: '2.0', id: null, error: refusal(hint) },
          ),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    httpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  it('is absorbed the same way, and bounded the same way', async () => {
    hints = [4];
    t.make({ httpUrl, validate: 'off' });
    expect(await t.client.call('public/get_time', {}, { transport: 'http' })).toBe(1_700_000_000_000);
    expect(posts).toBe(2);
    hints = [1, 1, 1];
    await expect(t.client.call('public/get_time', {}, { transport: 'http' })).rejects.toBeInstanceOf(RateLimitError);
    expect(posts).toBe(5);
  });
});
