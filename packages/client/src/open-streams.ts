/**
 * The streams a client has open (`ApiClient.stream`), held apart from the ring buffer behind each
 * (stream.ts) so that closing the client can end them all: their loops would otherwise wait for
 * payloads that will never come.
 */
import type { ClientError } from './errors';
import { BoundedQueue, openStream, type PayloadStream, type StreamOptions } from './stream';
import type { Subscription } from './types';

export class OpenStreams {
  private readonly queues = new Set<BoundedQueue<unknown>>();

  /** A stream of `address`'s payloads fed by `subscribe`, held until its loop is left or the client closes. */
  open<T>(
    address: string,
    options: StreamOptions,
    subscribe: (push: (payload: T) => void) => Promise<Subscription>,
    onOverflow: (dropped: number) => void,
  ): PayloadStream<T> {
    const queue = new BoundedQueue<T>(
      address,
      options.bufferSize ?? 1024,
      options.overflow ?? 'drop-oldest',
      onOverflow,
    );
    this.queues.add(queue as BoundedQueue<unknown>);
    return openStream(queue, subscribe, () => this.queues.delete(queue as BoundedQueue<unknown>));
  }

  /** The client closed: every stream ends, failing with the cause unless the user closed. */
  endAll(err: ClientError, byUser: boolean): void {
    for (const queue of this.queues) {
      if (byUser) queue.end();
      else queue.fail(err);
    }
    this.queues.clear();
  }
}
