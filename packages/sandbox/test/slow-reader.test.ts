/**
 * A reader that stops reading costs the server a bounded amount: once more than MAX_BUFFERED_BYTES
 * are queued for it, it is cut off and forgotten (nothing of it stays registered), while the other
 * subscribers get every push. What its queued frames held is then garbage like any other: V8 gives it
 * back at its next collection, which an idle process may not run for a while (see the package README,
 * "What it does").
 */
import { describe, expect, it } from 'vitest';
import { MAX_BUFFERED_BYTES } from '../src/connection';
import { Client, control, start } from './helpers';

describe('a slow reader', () => {
  it('is cut off once its queue passes the bound and forgotten; the others get every push', async () => {
    const sb = await start({ control: true, market: { intervalMs: 60_000 } });
    const slow = await Client.connect(sb.wsUrl);
    const other = await Client.connect(sb.wsUrl);
    for (const c of [slow, other]) await c.call('subscribe', { channels: ['trades.ETH-PERP'] });
    const [slowId] = (await control(sb, 'connections')).json.map((c: { id: number }) => c.id);
    (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const data = 'x'.repeat(1024 * 1024);
    // 1 MiB a push: the kernel's buffers take a few, then the server's queue grows to the bound.
    let sent = 0;
    let delivered = 2;
    while (delivered === 2 && sent < 64) {
      delivered = (await control(sb, 'push', { channel: 'trades.ETH-PERP', data })).json.delivered;
      sent++;
    }
    expect(delivered, 'the slow reader was cut off').toBe(1);
    expect(sent * 1024 * 1024).toBeGreaterThan(MAX_BUFFERED_BYTES);
    expect((await control(sb, 'connections')).json.map((c: { id: number }) => c.id)).not.toContain(slowId);
    await other.until(() => other.pushes('trades.ETH-PERP').length === sent);
    expect(other.closed).toBeNull();
  });
});
