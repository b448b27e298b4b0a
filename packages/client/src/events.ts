/** A small typed event emitter: a listener that throws cannot break the code that emits. */

/** Listeners by event name; `emit` calls each, and a listener's own failure is swallowed. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();

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
      } catch {
        // A listener's own failure must not break the receive path.
      }
    }
  }
}
