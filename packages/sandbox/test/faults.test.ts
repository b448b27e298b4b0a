/**
 * Nothing swallowed: a timer step that throws, and the errors of the server and its sockets, are each
 * counted (GET /control/status) and written once on stderr, while the sandbox goes on serving.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Faults, MAX_DISTINCT_FAULTS } from '../src/faults';
import { startTimers } from '../src/timers';
import { Client, control, HANG_MS, start } from './helpers';
import { badFramePeer, rawHttp, within } from './peers';
import { listening, runSandbox } from './processes';

/** A promise and the function that settles it. */
function signal(): { reached: Promise<void>; reach: () => void } {
  let reach = () => {};
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

describe('faults', () => {
  it(
    'a timer step that throws is written once, counted every time, and neither ' + 'its timer nor the others stop',
    async () => {
      const lines: string[] = [];
      const faults = new Faults((line) => lines.push(line));
      let failed = 0;
      let published = 0;
      const failing = signal();
      const publishing = signal();
      const stop = startTimers(
        [
          {
            ms: 5,
            what: 'the market tick',
            run: () => {
              if (++failed === 5) failing.reach();
              throw new TypeError('no mid price for ETH-PERP');
            },
          },
          { ms: 5, what: 'the 100 ms channels', run: () => void (++published === 5 && publishing.reach()) },
        ],
        faults,
      );
      const ran = await within(Promise.all([failing.reached, publishing.reached]), HANG_MS);
      stop();
      expect(ran).not.toBe('timeout');
      expect(faults.status()).toEqual({
        ticks: failed,
        server: 0,
        last: expect.stringMatching(/^the market tick: TypeError: no mid price for ETH-PERP at .*faults\.test\.ts/),
      });
      expect(lines).toEqual([
        expect.stringMatching(
          /^sandbox: the market tick failed \(the sandbox goes on; reported once\): TypeError: no mid/,
        ),
      ]);
    },
  );

  it('each distinct failure is written once; past a bound they are only counted, so stderr stays bounded', () => {
    const lines: string[] = [];
    const faults = new Faults((line) => lines.push(line));
    for (let i = 0; i < 3; i++) faults.report('server', 'WebSocket from 127.0.0.1', new RangeError('Invalid opcode 3'));
    faults.report('server', 'HTTP client', Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }));
    expect(lines).toEqual([
      'sandbox: WebSocket from 127.0.0.1 error (reported once): RangeError: Invalid opcode 3',
      'sandbox: HTTP client error (reported once): Error: Parse Error (HPE_INVALID_METHOD)',
    ]);
    // A peer that went away is how clients leave: counted, not written.
    faults.report('server', 'a WebSocket socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    expect(lines).toHaveLength(2);
    expect(faults.status().last).toBe('a WebSocket socket: Error: read ECONNRESET (ECONNRESET)');
    // A peer that varies its failure (other addresses, other bytes) gets a bounded number of lines.
    for (let i = 0; i < 1000; i++) faults.report('server', `WebSocket from 127.0.0.${i}`, new Error('x'));
    expect(lines).toHaveLength(MAX_DISTINCT_FAULTS + 1);
    expect(lines.at(-1)).toMatch(/further ones are only counted/);
    expect(faults.status()).toEqual({ ticks: 0, server: 1005, last: 'WebSocket from 127.0.0.999: Error: x' });
  });

  it('a sandbox counts server and socket errors in GET /control/status and keeps serving everyone else', async () => {
    const sb = await start({ control: true, market: { intervalMs: 20 } });
    expect((await control(sb, 'status')).json).toEqual({
      nowMs: expect.any(Number),
      connections: 0,
      errors: { ticks: 0, server: 0, last: null },
    });
    const bystander = await Client.connect(sb.wsUrl);
    await bystander.call('subscribe', { channels: ['trades.ETH-PERP', 'orderbook.ETH-PERP.1.10'] });
    // A WebSocket protocol error, then a request line no HTTP parser takes: each peer is dropped.
    await badFramePeer(sb.wsUrl);
    const garbage = await rawHttp(sb.httpUrl, 'HELLO / HTTP/1.1\r\n\r\n');
    await garbage.closed;
    const status = (await control(sb, 'status')).json;
    expect(status.errors).toEqual({ ticks: 0, server: 2, last: expect.stringMatching(/^HTTP client: .*HPE_/) });
    // Everyone else is served as before.
    const pushes = bystander.pushes('orderbook.ETH-PERP.1.10').length;
    await bystander.until(() => bystander.pushes('orderbook.ETH-PERP.1.10').length > pushes);
    expect((await bystander.call('public/get_all_live_instruments', {})).length).toBeGreaterThan(0);
  });

  it(
    'the command-line sandbox writes a server error once on stderr, however often it happens',
    { timeout: 120_000 },
    async () => {
      const r = runSandbox(['--port', '0']);
      const urls = listening(await r.firstLine);
      expect(urls).not.toBeNull();
      for (let i = 0; i < 5; i++) await badFramePeer(urls!.ws);
      // All it wrote is read once it has exited and its pipes are closed.
      const closed = once(r.child, 'close');
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
      await closed;
      expect(r.stderr().trim().split('\n')).toEqual([
        expect.stringMatching(
          /^sandbox: WebSocket from 127\.0\.0\.1 error \(reported once\): RangeError: Invalid WebSocket frame: invalid opcode 3/,
        ),
      ]);
    },
  );
});
