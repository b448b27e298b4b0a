/** The sandbox clock: real time plus an offset the control plane can move forward. */
export class Clock {
  private offsetMs = 0;
  /** Milliseconds since the epoch, as the sandbox sees it. */
  now(): number {
    return Date.now() + this.offsetMs;
  }
  /** Move the clock forward; returns the new time. */
  advance(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }
}
