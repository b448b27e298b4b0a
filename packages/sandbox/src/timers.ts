/**
 * The sandbox's timers: the market tick, the interval cadences of channels, and the heartbeat. They
 * start only once the server listens and all stop together, so a failed start or a close leaves none.
 *
 * The heartbeat (every `reverifyIntervalMs`, the heartbeat assumption) closes peers that showed no sign
 * of life since the last one (no pong, no frame), pings the others, re-verifies each stored login
 * (without re-applying freshness) and forgets nonces whose signatures have expired.
 */
import type { Accounts } from './accounts';
import type { ChannelAccess } from './access';
import type { NonceStore } from './state/ports';
import type { Clock } from './clock';
import type { Connection, ConnectionRegistry } from './connection';
import type { Faults } from './faults';
import type { SubscriptionIndex } from './subscriptions';

/** What the simulation needs driven. */
export interface Ticking {
  tick(): void;
  /** The interval cadences (ms, as channel parameters spell them) to publish at. */
  intervals(): string[];
  publishInterval(interval: string): void;
}

/** The parts the heartbeat looks after. */
export interface HeartbeatParts {
  clock: Clock;
  accounts: Accounts;
  access: ChannelAccess;
  connections: ConnectionRegistry;
  index: SubscriptionIndex;
  nonces: NonceStore;
}

/** One heartbeat over every connection. */
export function heartbeat(parts: HeartbeatParts): void {
  parts.nonces.forgetExpired(parts.clock.now());
  for (const conn of parts.connections.select()) {
    // A peer that answered no ping since the last beat is gone (or never meant to talk): free its slot.
    if (!conn.alive) {
      conn.terminate();
      continue;
    }
    conn.alive = false;
    conn.ping();
    if (conn.session) reverify(parts, conn);
  }
}

/** Re-verify a connection's stored login; a login that no longer holds is dropped with what it allowed. */
function reverify({ accounts, access, index }: HeartbeatParts, conn: Connection): void {
  const before = conn.session!;
  try {
    const again = accounts.verify(before.proof, conn.ip, false);
    conn.session = { ...again, subaccounts: before.subaccounts.filter((s) => again.subaccounts.includes(s)) };
  } catch {
    conn.session = null;
  }
  for (const address of [...conn.subscriptions]) if (access.refused(conn.session, address)) index.remove(conn, address);
}

/** A step run every `ms`; `what` names it in a fault report. */
export interface Step {
  ms: number;
  what: string;
  run(): void;
}

/** The sandbox's steps: the market tick, each interval cadence of the channels, and the heartbeat. */
export function sandboxSteps(
  market: Ticking,
  marketIntervalMs: number,
  heartbeatMs: number,
  parts: HeartbeatParts,
): Step[] {
  const steps: Step[] = [{ ms: marketIntervalMs, what: 'the market tick', run: () => market.tick() }];
  for (const v of market.intervals())
    steps.push({ ms: Number(v), what: `the ${v} ms channels`, run: () => market.publishInterval(v) });
  steps.push({ ms: heartbeatMs, what: 'the heartbeat', run: () => heartbeat(parts) });
  return steps;
}

/**
 * Start a timer for each step; returns the function that stops them all. A step that throws does not
 * stop its timer (the next run starts fresh) and is never swallowed: it goes to `faults`, which counts
 * every one and writes each distinct one once.
 */
export function startTimers(steps: Step[], faults: Faults): () => void {
  const intervals = steps.map(({ ms, what, run }) =>
    setInterval(() => {
      try {
        run();
      } catch (err) {
        faults.report('ticks', what, err);
      }
    }, ms),
  );
  return () => {
    for (const t of intervals) clearInterval(t);
    intervals.length = 0;
  };
}
