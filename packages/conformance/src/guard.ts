/**
 * Keeps the runner polite: never more WebSocket connections open than the server's per-IP budget, and
 * unauthenticated requests paced under the per-IP request budget, so one check cannot starve the next.
 */

/** Counts open connections against the budget; `acquire` waits for a free slot. */
export class ConnectionGuard {
  private open = 0;
  private readonly queue: (() => void)[] = [];

  constructor(public budget: number) {}

  /** Wait for a free slot and take it. */
  async acquire(): Promise<void> {
    if (this.open < this.budget) {
      this.open++;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  /** Give a slot back (when the socket has closed). */
  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.open = Math.max(0, this.open - 1);
  }

  /** Connections counted as open now. */
  get inUse(): number {
    return this.open;
  }

  /** Resolves when no guarded connection is open (used by the one check allowed past the budget). */
  async idle(timeoutMs = 15_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.open > 0) {
      if (Date.now() > until) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
    return true;
  }
}

/** A sliding-window pacer: at most `points` takes per `windowMs`. */
export class Pacer {
  private stamps: number[] = [];

  constructor(
    public points: number,
    public windowMs: number,
  ) {}

  /** Wait until one more request fits in the window, then count it. */
  async take(): Promise<number> {
    let waited = 0;
    for (;;) {
      const now = Date.now();
      this.stamps = this.stamps.filter((s) => s > now - this.windowMs);
      if (this.stamps.length < this.points) {
        this.stamps.push(now);
        return waited;
      }
      const wait = this.stamps[0]! + this.windowMs - now + 5;
      waited += wait;
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Forget what was counted (after the server's window is known to have reset). */
  reset(): void {
    this.stamps = [];
  }
}
