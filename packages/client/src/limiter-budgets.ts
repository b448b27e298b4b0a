/**
 * The limiter's two kinds of budget, apart from the queue that waits on them (limiter.ts): a
 * fixed-window budget per rate-limit class and a token bucket per instrument, each knowing only its own
 * arithmetic (how long to wait, what a take costs) on the clock it is handed.
 */
/** A limit of the API's tables, the deployment's overrides (`LimiterOptions.limits`) applied. */
export type WindowLimit = { id: string; kind: 'window'; scope: string; points: number; windowMs: number };
/** An order-flow bucket limit of the tables, overrides applied; `instrumentTypes` pick the instruments it serves. */
export type BucketLimit = {
  id: string;
  kind: 'bucket';
  refillPerSecond: number;
  capacity: number;
  instrumentTypes: readonly string[];
};

/** A rate-limit class's fixed window: `points` takes per window, ending `marginMs` late on the client's clock. */
export class WindowBudget {
  used = 0;
  /** Every take since the budget was made (never reset): tells which takes a getRateLimits answer cannot have seen. */
  total = 0;
  /** When the current window ends (client clock, margin included); 0 when none is running. */
  resetAt = 0;
  blockedUntil = 0;
  constructor(
    readonly id: string,
    public points: number,
    public windowMs: number,
    private readonly marginMs: number,
  ) {}
  waitMs(now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    if (now >= this.resetAt || this.used < this.points) return 0;
    return this.resetAt - now;
  }
  take(now: number): void {
    if (now >= this.resetAt) {
      this.used = 0;
      this.resetAt = now + this.windowMs + this.marginMs;
    }
    this.used++;
    this.total++;
  }
}

/** One instrument's order-flow bucket: `capacity` tokens, refilled at `refillPerSecond`. */
export class TokenBucket {
  tokens: number;
  last: number;
  blockedUntil = 0;
  /**
   * Each request is charged a little over one token, so jitter in arrival times never puts the server's
   * bucket below ours.
   */
  readonly charge: number;
  readonly cap: number;
  constructor(
    readonly refillPerSecond: number,
    capacity: number,
    marginMs: number,
    now: number,
  ) {
    this.charge = 1 + Math.min(0.25, Math.max(0.02, (refillPerSecond * marginMs) / 1000));
    this.cap = capacity * this.charge;
    this.tokens = this.cap;
    this.last = now;
  }
  private refill(now: number): void {
    this.tokens = Math.min(this.cap, this.tokens + ((now - this.last) * this.refillPerSecond) / 1000);
    this.last = now;
  }
  waitMs(now: number): number {
    if (now < this.blockedUntil) return this.blockedUntil - now;
    this.refill(now);
    return this.tokens >= this.charge ? 0 : Math.ceil(((this.charge - this.tokens) * 1000) / this.refillPerSecond);
  }
  take(now: number): void {
    this.refill(now);
    this.tokens -= this.charge;
  }
}

/** What a request draws on; `blockedUntil` is set by a server's retry hint (Limiter.penalize). */
export type Budget = WindowBudget | TokenBucket;
