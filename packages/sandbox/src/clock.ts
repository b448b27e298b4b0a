/** The sandbox clock: real time plus an offset the control plane can move forward. */
export class Clock {
  /** The clock never passes the last millisecond of year 9999: every timestamp stays a valid date. */
  static readonly MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  private offsetMs = 0;

  /** Milliseconds since the epoch, as the sandbox sees it. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Throws a RangeError naming the bound when moving forward by ms is not allowed. */
  checkAdvance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`ms must be a finite number of at least 0 (got ${ms})`);
    if (this.now() + ms > Clock.MAX_MS)
      throw new RangeError(`advancing by ${ms} ms would move the clock past ${new Date(Clock.MAX_MS).toISOString()}`);
  }

  /** Move the clock forward; returns the new time. */
  advance(ms: number): number {
    this.checkAdvance(ms);
    this.offsetMs += ms;
    return this.now();
  }
}
