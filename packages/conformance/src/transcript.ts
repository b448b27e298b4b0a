import type { TranscriptEntry } from './model';

const MAX_DATA = 4000;
const MAX_ENTRIES = 400;
/** Events (opens, closes, what was dropped) past MAX_ENTRIES: few per connection, and they explain the rest. */
const MAX_EXTRA_EVENTS = 100;

/** The frames and events of one check (or one shared probe), with times relative to the run's start. */
export class Transcript {
  readonly entries: TranscriptEntry[] = [];
  private dropped = 0;
  private extraEvents = 0;

  constructor(private readonly t0: number) {}

  /** Milliseconds since the run started. */
  now(): number {
    return Date.now() - this.t0;
  }

  /** Record a frame or event; long frames are cut, and past the cap only a count is kept so memory stays bounded. */
  record(conn: string, dir: TranscriptEntry['dir'], data: string, t = this.now()): TranscriptEntry {
    const entry = {
      t,
      conn,
      dir,
      data: data.length > MAX_DATA ? `${data.slice(0, MAX_DATA)}… (${data.length} chars)` : data,
    };
    if (this.entries.length < MAX_ENTRIES) this.entries.push(entry);
    else if (dir === 'event' && this.extraEvents < MAX_EXTRA_EVENTS) {
      this.extraEvents++;
      this.entries.push(entry);
    } else this.dropped++;
    return entry;
  }

  /** Copy entries from another transcript (a shared probe's) into this one. */
  attach(entries: readonly TranscriptEntry[]): void {
    for (const e of entries) {
      if (this.entries.includes(e)) continue;
      if (this.entries.length < MAX_ENTRIES) this.entries.push(e);
      else this.dropped++;
    }
  }

  /** The entries in time order, with a note when some were left out. */
  finish(): TranscriptEntry[] {
    const sorted = [...this.entries].sort((a, b) => a.t - b.t);
    if (this.dropped > 0)
      sorted.push({ t: sorted.at(-1)?.t ?? 0, conn: '-', dir: 'event', data: `${this.dropped} more entries left out` });
    return sorted;
  }
}
