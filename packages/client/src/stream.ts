/**
 * A bounded queue behind `client.stream(channel)`: the handler pushes, the async iterator pulls.
 * When the consumer falls behind, the overflow policy decides: drop the oldest payload (default) or
 * end the stream with a StreamOverflowError.
 */
import { StreamOverflowError } from './errors';

/** What a stream does when its buffer is full. */
export type OverflowPolicy = 'drop-oldest' | 'error';

/** Stream settings. */
export interface StreamOptions {
  /** Payloads held for a slow consumer. Default 1024. */
  bufferSize?: number;
  /** Default 'drop-oldest'. */
  overflow?: OverflowPolicy;
}

/** The buffer of one stream: FIFO up to bufferSize, then the overflow policy. */
export class BoundedQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;
  private failure: unknown = null;
  private done = false;
  dropped = 0;

  constructor(readonly address: string, readonly bufferSize: number, readonly overflow: OverflowPolicy, private readonly onOverflow: (dropped: number) => void) {}

  push(item: T): void {
    if (this.done) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value: item, done: false });
      return;
    }
    if (this.items.length - this.head >= this.bufferSize) {
      if (this.overflow === 'error') {
        this.fail(new StreamOverflowError(this.address, this.bufferSize));
        return;
      }
      this.head++;
      this.dropped++;
      this.onOverflow(this.dropped);
    }
    this.items.push(item);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++]!;
      // Compact now and then instead of shifting on every read.
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items.splice(0, this.head);
        this.head = 0;
      }
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
    this.done = true;
    this.items.length = this.head = 0;
    if (this.waiter) {
      this.waiter.reject(err);
      this.waiter = null;
    } else this.failure = err;
    this.onEnd?.();
  }

  /** End normally: reads after the buffered payloads report done. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.items.length = this.head = 0;
    this.waiter?.resolve({ value: undefined, done: true });
    this.waiter = null;
  }

  onEnd: (() => void) | null = null;
}
