/**
 * Progress for `exchange-api start`: a step that has printed nothing for 2 s says what it is still doing,
 * every 2 s until it ends (the first step checks the whole spec with the parser, about 10 s on a fresh
 * clone, and printed nothing in that time). Only silence is filled: a step that prints as it goes (the
 * conformance suite, a line per check) is never interrupted. A timer cannot fire while the main thread
 * is busy (the generators' synchronous work holds it for seconds on a loaded machine), so a step that
 * may hold it says at its start what it does and about how long it takes.
 */
import type { Io } from '../args';

/** How long a step may be silent before it says what it is doing. */
export const QUIET_MS = 2000;

/** The clock and the timer of the heartbeat: the real ones, or a test's. */
export interface Ticker {
  now: () => number;
  /** Call `tick` repeatedly until the returned function is called. */
  every: (ms: number, tick: () => void) => () => void;
}

const realTicker: Ticker = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  },
};

/** An Io that notes when it last printed, and `during`, which runs a step's work with a heartbeat. */
export interface Heartbeat {
  io: Io;
  /** Run `work`; while it runs, after each QUIET_MS of silence print `  … <what()> (<s> s)`. */
  during<T>(what: () => string, work: () => Promise<T>): Promise<T>;
}

export function heartbeat(io: Io, ticker: Ticker = realTicker, quietMs = QUIET_MS): Heartbeat {
  let last = ticker.now();
  const noted: Io = {
    out: (line) => {
      last = ticker.now();
      io.out(line);
    },
    err: (line) => {
      last = ticker.now();
      io.err(line);
    },
  };
  return {
    io: noted,
    async during(what, work) {
      const since = ticker.now();
      last = since;
      // Looked at four times per quiet span, so a line comes at most a quarter of it late.
      const stop = ticker.every(quietMs / 4, () => {
        const now = ticker.now();
        if (now - last >= quietMs) noted.out(`  … ${what()} (${((now - since) / 1000).toFixed(0)} s)`);
      });
      try {
        return await work();
      } finally {
        stop();
      }
    },
  };
}
