import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { methodTable } from '@exchange-api/types';
import { Client, start } from './helpers';

const methods = [...methodTable.map((m) => m.name), 'nope', '', 'public/', '__proto__', 'constructor'];

/**
 * Hostile frames: random text, random JSON, near-miss requests with random params and headers, big and binary frames.
 */
const frame = fc.oneof(
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }).map((s) => ({ text: s, binary: false })) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((s) => ({ text: s, binary: false })) },
  {
    weight: 6,
    arbitrary: fc
      .record(
        {
          jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.anything({ maxDepth: 1 })),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null), fc.anything({ maxDepth: 1 })),
          method: fc.oneof(fc.constantFrom(...methods), fc.anything({ maxDepth: 1 })),
          params: fc.oneof(
            fc.anything({ maxDepth: 3 }),
            fc.record(
              {
                channels: fc.array(
                  fc.oneof(
                    fc.string({ maxLength: 40 }),
                    fc.constantFrom('orderbook.ETH-PERP.1.1', 'trades.ETH-PERP', '1.orders', 'margin.watch'),
                    fc.anything({ maxDepth: 1 }),
                  ),
                  { maxLength: 5 },
                ),
              },
              { requiredKeys: [] },
            ),
            fc.record(
              { wallet: fc.string(), timestamp: fc.oneof(fc.string(), fc.integer()), signature: fc.string() },
              { requiredKeys: [] },
            ),
            fc.record(
              {
                subaccount_id: fc.integer(),
                nonce: fc.string(),
                signer: fc.string(),
                signature: fc.string(),
                signature_expiry_sec: fc.integer(),
                instrument_name: fc.string(),
              },
              { requiredKeys: [] },
            ),
          ),
          headers: fc.anything({ maxDepth: 2 }),
        },
        { requiredKeys: [] },
      )
      .map((o) => ({ text: JSON.stringify(o), binary: false })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ text: Buffer.from(b).toString('latin1'), binary: true })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 3 })
      .map((n) => ({ text: '{"a":"' + 'x'.repeat(1500 * n) + '"}', binary: false })),
  },
);

describe('fuzz', () => {
  it('answers thousands of hostile frames without crashing; another client is unaffected', async () => {
    const sb = await start({ limits: { public: { points: 1_000_000 }, max_frame_bytes: { maxBytes: 2048 } } });
    const hostile = await Client.connect(sb.wsUrl);
    const bystander = await Client.connect(sb.wsUrl);
    await bystander.call('subscribe', { channels: ['orderbook.ETH-PERP.1.10'] });
    const frames = fc.sample(frame, { numRuns: 3000, seed: 42 });
    for (const f of frames) hostile.send(f.binary ? Buffer.from(f.text, 'latin1') : f.text, f.binary);
    const answers = () =>
      hostile.frames.filter((f) => f.json !== undefined && f.json?.method !== 'subscription').length;
    // A bounded wait: too few answers fail the count below, with the number seen.
    await hostile.until(() => answers() >= frames.length).catch(() => undefined);
    expect(answers()).toBe(frames.length);
    for (const f of hostile.frames) {
      if (f.json?.method === 'subscription') continue;
      expect(f.json.jsonrpc).toBe('2.0');
      expect('result' in f.json !== 'error' in f.json).toBe(true);
      if (f.json.error) expect(f.json.error.code, f.text.slice(0, 300)).not.toBe(-32603);
    }
    expect(hostile.closed).toBeNull();
    expect(bystander.closed).toBeNull();
    expect((await bystander.call('public/get_all_live_instruments', {})).length).toBeGreaterThan(0);
    expect(bystander.pushes('orderbook.ETH-PERP.1.10').length).toBeGreaterThan(0);
    expect((await hostile.call('public/getRateLimits', {})).remaining_connections).toBeDefined();
  });
});
