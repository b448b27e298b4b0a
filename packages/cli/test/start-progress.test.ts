/**
 * `npm start` says what a step is still doing after 2 s of silence, every 2 s (issue 32, item 24: it was
 * silent for 10 s after `[1/5]`). Driven by a ticker of the test's: the clock moves only when the test
 * moves it, so what is printed follows from the silence alone.
 */
import { describe, expect, it } from 'vitest';
import { heartbeat, QUIET_MS, type Ticker } from '../src/commands/start-progress';

/** A clock the test moves, and the ticks it delivers as it moves. */
function manualTicker() {
  let now = 1_000_000;
  const ticks = new Set<{ ms: number; next: number; tick: () => void }>();
  const ticker: Ticker = {
    now: () => now,
    every: (ms, tick) => {
      const t = { ms, next: now + ms, tick };
      ticks.add(t);
      return () => ticks.delete(t);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...ticks].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.ms;
      due.tick();
    }
    now = end;
  };
  return { ticker, advance, running: () => ticks.size };
}

describe('the heartbeat of npm start', () => {
  it('fills each 2 s of silence with what the step is doing, and stops when it ends', async () => {
    const lines: string[] = [];
    const { ticker, advance, running } = manualTicker();
    const beat = heartbeat({ out: (l) => lines.push(l), err: (l) => lines.push(`err ${l}`) }, ticker);
    let finish!: (v: string) => void;
    let phase = 'checking the spec';
    const work = beat.during(
      () => phase,
      () => new Promise<string>((resolve) => (finish = resolve)),
    );
    advance(QUIET_MS - 1);
    expect(lines).toEqual([]); // quiet for less than 2 s: nothing
    advance(1);
    expect(lines).toEqual(['  … checking the spec (2 s)']);
    phase = 'regenerating 3 file(s)';
    advance(QUIET_MS);
    expect(lines).toEqual(['  … checking the spec (2 s)', '  … regenerating 3 file(s) (4 s)']);
    finish('done');
    expect(await work).toBe('done');
    expect(running()).toBe(0);
    advance(10 * QUIET_MS);
    expect(lines).toHaveLength(2);
  });

  it('a step that prints as it goes is not interrupted: only silence is filled', async () => {
    const lines: string[] = [];
    const { ticker, advance } = manualTicker();
    const beat = heartbeat({ out: (l) => lines.push(l), err: (l) => lines.push(l) }, ticker);
    let finish!: () => void;
    const work = beat.during(
      () => 'running the conformance suite',
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    for (let i = 0; i < 5; i++) {
      advance(QUIET_MS - 500);
      beat.io.out(`check ${i}`);
    }
    expect(lines).toEqual(['check 0', 'check 1', 'check 2', 'check 3', 'check 4']);
    advance(QUIET_MS);
    expect(lines.at(-1)).toBe('  … running the conformance suite (10 s)');
    finish();
    await work;
  });

  it('the work’s failure is its own, and the heartbeat stops with it', async () => {
    const { ticker, running } = manualTicker();
    const beat = heartbeat({ out: () => undefined, err: () => undefined }, ticker);
    await expect(
      beat.during(
        () => 'x',
        () => Promise.reject(new Error('spec broken')),
      ),
    ).rejects.toThrow('spec broken');
    expect(running()).toBe(0);
  });
});
