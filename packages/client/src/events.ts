/**
 * A small typed event emitter. A listener that throws neither breaks the code that emits (the receive
 * path, the reconnect loop) nor stops the other listeners, and is not swallowed either: its error goes
 * to the `error` listeners when there are any, and is otherwise thrown again on its own, as the DOM's
 * EventTarget reports it (an `uncaughtException` in Node, as a throwing EventEmitter listener gives).
 */

/** Listeners by event name; `emit` calls each, and a listener's failure is reported (see above). */
export class Emitter<Events extends { error: unknown }> {
  private readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();

  /** `asError` makes what the `error` listeners get when a listener of `event` threw `err`. */
  constructor(private readonly asError: (event: keyof Events, err: unknown) => Events['error']) {}

  /** Listen to an event; returns the function that stops listening. */
  on<E extends keyof Events>(event: E, fn: (value: Events[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn as (value: never) => void);
    return () => set.delete(fn as (value: never) => void);
  }

  /** Call every listener of `event` with `value`. */
  emit<E extends keyof Events>(event: E, value: Events[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const fn of set) {
      try {
        (fn as (value: Events[E]) => void)(value);
      } catch (err) {
        this.failed(event, err);
      }
    }
  }

  /**
   * A listener threw. An `error` listener's own failure is never sent back to `error` (it would loop),
   * and with no `error` listener nobody would see it: then it is thrown again outside the emitting code.
   */
  private failed(event: keyof Events, err: unknown): void {
    if (event !== 'error' && (this.listeners.get('error')?.size ?? 0) > 0) {
      this.emit('error', this.asError(event, err));
      return;
    }
    queueMicrotask(() => {
      throw err;
    });
  }
}
