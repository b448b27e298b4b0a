/** The stream's bounded buffer, on its own: what it keeps, in what order, and what it lets go. */
import { describe, expect, it } from 'vitest';
import { BoundedQueue } from '../src/stream';

describe('BoundedQueue', () => {
  it("'drop-oldest' with a stalled consumer keeps at most bufferSize payloads referenced", async () => {
    const overflows: number[] = [];
    const queue = new BoundedQueue<{ n: number }>('trades.ETH-PERP', 8, 'drop-oldest', (dropped) =>
      overflows.push(dropped),
    );
    for (let n = 1; n <= 10_000; n++) queue.push({ n });
    // Dropped payloads must not stay referenced: the buffer holds the newest 8 and nothing else.
    expect(queue.retained).toBe(8);
    expect(queue.buffered).toBe(8);
    expect(queue.droppedCount).toBe(10_000 - 8);
    expect(overflows).toHaveLength(10_000 - 8);
    const read: number[] = [];
    for (let i = 0; i < 8; i++) read.push((await queue.next()).value!.n);
    expect(read).toEqual([9993, 9994, 9995, 9996, 9997, 9998, 9999, 10_000]);
    // Read payloads are let go too.
    expect(queue.retained).toBe(0);
  });

  it('keeps order across the ring while reads and pushes interleave', async () => {
    const queue = new BoundedQueue<number>('trades.ETH-PERP', 3, 'drop-oldest', () => {});
    const read: number[] = [];
    let next = 1;
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 2; i++) queue.push(next++);
      read.push((await queue.next()).value!);
      expect(queue.retained).toBeLessThanOrEqual(3);
    }
    while (queue.buffered > 0) read.push((await queue.next()).value!);
    // Strictly increasing: what is kept comes out in the order it went in.
    expect(read.every((v, i) => i === 0 || v > read[i - 1]!)).toBe(true);
    expect(read.at(-1)).toBe(next - 1);
  });

  it("'error' ends the stream: the next read rejects, then done; nothing stays referenced", async () => {
    const queue = new BoundedQueue<number>('trades.ETH-PERP', 2, 'error', () => {});
    for (let n = 1; n <= 5; n++) queue.push(n);
    await expect(queue.next()).rejects.toMatchObject({ code: 'STREAM_OVERFLOW' });
    expect(await queue.next()).toEqual({ value: undefined, done: true });
    expect(queue.retained).toBe(0);
  });

  it('a reader waiting when the stream fails gets the error, not done', async () => {
    const queue = new BoundedQueue<number>('trades.ETH-PERP', 2, 'error', () => {});
    const waiting = queue.next();
    queue.fail(new Error('refused'));
    await expect(waiting).rejects.toThrow('refused');
  });

  it('a buffer size that is not a positive integer is refused at once', () => {
    expect(() => new BoundedQueue<number>('trades.ETH-PERP', 0, 'drop-oldest', () => {})).toThrow(
      /bufferSize must be a positive integer/,
    );
  });
});
