/**
 * `client.stream(channel)`: an async iterator over a subscription, with a bounded buffer between the
 * handler that pushes and the consumer that pulls. When the consumer falls behind, the overflow
 * policy decides: drop the oldest payload (default) or end the stream with a StreamOverflowError.
 */
import { StreamOverflowError, UsageError } from './errors';
import type { Subscription } from './types';

/** What a stream does when its buffer is full. */
export type OverflowPolicy = 'drop-oldest' | 'error';

/** Stream settings. */
export interface StreamOptions {
  /** Payloads held for a slow consumer. Default 1024. */
  bufferSize?: number;
  /** Default 'drop-oldest'. */
  overflow?: OverflowPolicy;
}

/**
 * The buffer of one stream: a ring of `bufferSize` slots, FIFO, then the overflow policy. A dropped
 * payload's slot is overwritten, so the buffer never holds more than `bufferSize` payloads.
 */
export class BoundedQueue<T> {
  private readonly slots: Array<T | undefined> = [];
  /** Index of the oldest buffered payload in `slots`. */
  private head = 0;
  private count = 0;
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private failure: unknown = null;
  private done = false;
  /** Payloads dropped so far by 'drop-oldest'. */
  droppedCount = 0;
  /** Called once when the stream ends on its own (overflow 'error'). */
  onEnd: (() => void) | null = null;

  constructor(
    readonly address: string,
    readonly bufferSize: number,
    readonly overflow: OverflowPolicy,
    private readonly onOverflow: (droppedCount: number) => void,
  ) {
    if (!Number.isInteger(bufferSize) || bufferSize < 1)
      throw new UsageError(`stream ${address}: bufferSize must be a positive integer (got ${bufferSize})`);
  }

  /** Payloads waiting to be read. */
  get buffered(): number {
    return this.count;
  }

  /** Payloads the buffer still references (read or dropped ones included, if any were kept). */
  get retained(): number {
    let n = 0;
    for (const slot of this.slots) if (slot !== undefined) n++;
    return n;
  }

  /** Hand over a payload: to the waiting reader, else into the buffer. */
  push(item: T): void {
    if (this.done) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value: item, done: false });
      return;
    }
    if (this.count >= this.bufferSize) {
      if (this.overflow === 'error') {
        this.fail(new StreamOverflowError(this.address, this.bufferSize));
        return;
      }
      // Drop the oldest: its slot is the one the new payload takes.
      this.slots[this.head] = item;
      this.head = (this.head + 1) % this.bufferSize;
      this.droppedCount++;
      this.onOverflow(this.droppedCount);
      return;
    }
    this.slots[(this.head + this.count) % this.bufferSize] = item;
    this.count++;
  }

  /** The next payload: a buffered one, else the next pushed; done once ended. */
  next(): Promise<IteratorResult<T>> {
    if (this.count > 0) {
      const value = this.slots[this.head] as T;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.bufferSize;
      this.count--;
      return Promise.resolve({ value, done: false });
    }
    if (this.failure) {
      const f = this.failure;
      this.failure = null;
      return Promise.reject(f);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** End with an error: buffered payloads are dropped, the next read rejects. */
  fail(err: unknown): void {
    if (this.done) return;
    const waiter = this.waiter;
    this.waiter = null;
    this.end();
    if (waiter) waiter.reject(err);
    else this.failure = err;
    this.onEnd?.();
  }

  /** End normally: reads after this report done. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.slots.length = this.head = this.count = 0;
    this.waiter?.resolve({ value: undefined, done: true });
    this.waiter = null;
  }
}

/** An async iterator over a channel's payloads; `ready` resolves with the subscription once confirmed. */
export type PayloadStream<T> = AsyncIterableIterator<T> & { ready: Promise<Subscription> };

/**
 * A stream over `subscribe`: the subscription pushes into the queue, leaving the loop (or the queue
 * ending) unsubscribes. `onStop` runs once the stream stops, for the client's list of open streams.
 */
export function openStream<T>(
  queue: BoundedQueue<T>,
  subscribe: (push: (payload: T) => void) => Promise<Subscription>,
  onStop: () => void,
): PayloadStream<T> {
  const ready = subscribe((payload) => queue.push(payload));
  let sub: Subscription | null = null;
  // A refused subscription ends the stream with its error (read by the loop; `ready` carries it too).
  ready.then(
    (s) => (sub = s),
    (err: unknown) => queue.fail(err),
  );
  const stop = async () => {
    onStop();
    queue.end();
    // A subscription that failed has already failed the stream (queue.fail above): nothing to unsubscribe.
    await (sub ?? (await ready.catch(() => null)))?.unsubscribe();
  };
  queue.onEnd = () => void stop();
  const it: PayloadStream<T> = {
    ready,
    next: () => queue.next(),
    return: async (): Promise<IteratorResult<T>> => {
      await stop();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
