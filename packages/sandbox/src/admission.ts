/**
 * Admission: the per-IP limit on concurrent WebSocket clients. Each IP holds at most `max` slots;
 * a slot is taken when a connection opens and given back when it closes, whatever the cause. This is
 * the slot port's memory adapter (a fleet's: redis/slots.ts).
 */
import type { Budget, SlotStore } from './state/ports';

/**
 * Open connections of one IP. `first` is the connection that opened the IP's current run (the span
 * during which it holds at least one connection): the connection budget has no time window, so that
 * run is its "duration", and isFirstInDuration of remaining_connections is true on exactly that
 * connection, as rate-limiter-flexible reports it for the request that opened a window.
 */
interface Run {
  count: number;
  first: number;
}

/** Connection slots per IP, as the WebSocket transport and getRateLimits use them (the slot port). */
export type Slots = SlotStore;

/** Connection slots per IP, in this process. */
export class Admission implements SlotStore {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly max: number) {}

  /** Whether `ip` may open one more connection. */
  hasRoom(ip: string): boolean {
    return this.held(ip) < this.max;
  }

  /** Take a slot of `ip` for connection `id` (after hasRoom said yes). */
  take(ip: string, id: number): void {
    const run = this.runs.get(ip);
    if (run) run.count++;
    else this.runs.set(ip, { count: 1, first: id });
  }

  /** Take a slot if `ip` has room (hasRoom, then take). */
  tryTake(ip: string, id: number): boolean {
    if (!this.hasRoom(ip)) return false;
    this.take(ip, id);
    return true;
  }

  /** Give back a slot of `ip`. */
  release(ip: string): void {
    const run = this.runs.get(ip);
    if (run && --run.count <= 0) this.runs.delete(ip);
  }

  /** Slots held by an IP. */
  held(ip: string): number {
    return this.runs.get(ip)?.count ?? 0;
  }

  /** Slots held in all, over every IP. */
  get total(): number {
    let n = 0;
    for (const run of this.runs.values()) n += run.count;
    return n;
  }

  /** remaining_connections of getRateLimits, as connection `id` from `ip` sees it. */
  report(ip: string, id: number): Budget {
    const run = this.runs.get(ip) ?? { count: 0, first: -1 };
    return {
      remainingPoints: Math.max(0, this.max - run.count),
      msBeforeNext: 0,
      consumedPoints: run.count,
      isFirstInDuration: run.first === id,
    };
  }

  /** Forget every slot (the sandbox is closing). */
  clear(): void {
    this.runs.clear();
  }
}
