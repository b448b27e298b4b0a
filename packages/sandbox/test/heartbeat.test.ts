/** The heartbeat: peers that answer no ping lose their connection slot; peers that do keep theirs. */
import { describe, expect, it } from 'vitest';
import { Client, start } from './helpers';
import { silentPeer } from './peers';

describe('heartbeat', () => {
  it('closes peers that upgrade and then go silent, so they cannot lock an IP out', async () => {
    const sb = await start({ login: { reverifyIntervalMs: 300 } });
    const talker = await Client.connect(sb.wsUrl);
    const silent = await Promise.all([1, 2, 3].map(() => silentPeer(sb.wsUrl)));
    // The IP's four slots are taken: a fifth is refused while the silent peers hold theirs.
    const fifth = await Client.connect(sb.wsUrl);
    expect((await fifth.next(() => true)).text).toMatch(/^connectionLimitExceeded:/);
    // Within a few beats every silent peer is cut off; the one that answers pings stays and works.
    // Awaited without a bound of its own: a peer never cut off meets the test's bound.
    for (const peer of silent) await peer.closed;
    expect(talker.closed).toBeNull();
    expect((await talker.call('public/get_all_live_instruments', {})).length).toBeGreaterThan(0);
    // Their slots are free again.
    const again = await Client.connect(sb.wsUrl);
    expect((await again.call('public/getRateLimits', {})).remaining_connections).toMatchObject({ consumedPoints: 2 });
  });

  it('four silent peers do not lock the IP out for longer than the heartbeat', async () => {
    const sb = await start({ login: { reverifyIntervalMs: 200 } });
    const silent = await Promise.all([1, 2, 3, 4].map(() => silentPeer(sb.wsUrl)));
    await Promise.all(silent.map((p) => p.closed));
    expect(silent.every((p) => p.isClosed())).toBe(true);
    const c = await Client.connect(sb.wsUrl);
    // A client whose library answers pings is not taken for a silent one: it is pinged beat after beat
    // (a peer taken for silent is cut off at the beat instead of pinged).
    for (let beat = 0; beat < 3; beat++) await c.nextPing();
    expect(c.closed).toBeNull();
    expect((await c.call('public/getRateLimits', {})).remaining_connections).toMatchObject({ consumedPoints: 1 });
  });
});
