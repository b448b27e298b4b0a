/**
 * Probe memoisation: a shared probe (exhausting a budget, sampling the channels) runs once per run, on
 * behalf of the first check that needs it, and every later check reads its outcome. It has its own
 * transcript and connections, closed when it ends; it is stopped with the check that started it, and a
 * later check reading a stopped probe ends inconclusive.
 */
import { Stop } from './outcome';
import type { Transcript } from './transcript';

/** What a probe's context offers the memoisation: its stop signal, transcript and connections. */
export interface ProbeContext {
  readonly signal: AbortSignal;
  readonly transcript: Transcript;
  throwIfStopped(): void;
  closeAll(): Promise<void>;
}

/** A probe's value with the transcript of what it exchanged. */
export type ProbeResult<T> = T & { transcript: Transcript };

/** The memoised outcome of probe `name`, starting it in a fresh context from `open` when no check has yet. */
export function memoisedProbe<C extends ProbeContext, T>(
  memo: Map<string, Promise<unknown>>,
  name: string,
  starter: string,
  open: () => C,
  body: (p: C) => Promise<T>,
): Promise<ProbeResult<T>> {
  const known = memo.get(name) as Promise<ProbeResult<T>> | undefined;
  if (known) return known;
  const probe = open();
  const p = (async () => {
    try {
      const value = await body(probe);
      probe.throwIfStopped();
      return Object.assign(value as object, { transcript: probe.transcript }) as ProbeResult<T>;
    } catch (err) {
      if (probe.signal.aborted)
        throw new Stop('inconclusive', `the shared probe ${name} was stopped when ${starter} ran out of time`);
      throw err;
    } finally {
      await probe.closeAll();
    }
  })();
  memo.set(name, p);
  return p;
}
