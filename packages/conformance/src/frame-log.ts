/**
 * The frames a connection received, bounded: the last MAX_KEPT_FRAMES (and at most MAX_KEPT_CHARS of
 * text) are kept, older ones are dropped and counted. A server that floods pushes for the life of a
 * connection once filled the runner's memory (4.3 GB) and no report was written. Frames keep their index
 * in the whole stream, so a cursor (`length` at some moment) still means "from here on".
 */
import type { TranscriptEntry } from './model';

/** A frame received from the server. `json` is undefined when the text is not JSON. */
export interface Frame {
  index: number;
  t: number;
  text: string;
  json: unknown;
  entry: TranscriptEntry;
}

/** How many of a connection's latest frames are kept: far more than any check reads back. */
export const MAX_KEPT_FRAMES = 2000;
/** How much frame text is kept per connection (characters), whatever the count. */
export const MAX_KEPT_CHARS = 8_000_000;

/** The kept frames of one connection, oldest first, with the counts of what was received and dropped. */
export class FrameLog {
  private readonly kept: Frame[] = [];
  private head = 0;
  private chars = 0;
  private total = 0;

  constructor(
    private readonly maxFrames = MAX_KEPT_FRAMES,
    private readonly maxChars = MAX_KEPT_CHARS,
  ) {}

  /** How many frames were received: the index the next one gets (a cursor for "from now on"). */
  get length(): number {
    return this.total;
  }

  /** How many frames are kept now. */
  get keptCount(): number {
    return this.kept.length - this.head;
  }

  /** How many frames were dropped to keep memory bounded. */
  get dropped(): number {
    return this.total - this.keptCount;
  }

  /** Add the frame `make` builds with the next index, dropping the oldest ones past the bounds; returns it. */
  push(make: (index: number) => Frame): Frame {
    const frame = make(this.total++);
    this.kept.push(frame);
    this.chars += frame.text.length;
    // The newest frame always stays, however long: a check waiting on it must see it.
    while (this.keptCount > 1 && (this.keptCount > this.maxFrames || this.chars > this.maxChars)) {
      this.chars -= this.kept[this.head]!.text.length;
      this.head++;
    }
    // Compact now and then, so the array does not hold the dropped frames alive.
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
    return frame;
  }

  /** The kept frames with an index at or after `from` (all kept ones by default), oldest first. */
  slice(from = 0): Frame[] {
    const first = this.kept[this.head];
    if (!first) return [];
    return this.kept.slice(this.head + Math.max(0, from - first.index));
  }

  /**
   * The first kept frame at or after index `from` matching `pred`. It starts at `from`: a call's answer is
   * looked for among the frames after it was sent, not among the 2000 kept before.
   */
  find(pred: (f: Frame) => boolean, from = 0): Frame | undefined {
    const first = this.kept[this.head];
    if (!first) return undefined;
    for (let i = this.head + Math.max(0, from - first.index); i < this.kept.length; i++)
      if (pred(this.kept[i]!)) return this.kept[i];
    return undefined;
  }

  /** Whether a kept frame matches `pred`. */
  some(pred: (f: Frame) => boolean): boolean {
    return this.find(pred) !== undefined;
  }

  /** The kept frames matching `pred`. */
  filter(pred: (f: Frame) => boolean): Frame[] {
    return this.slice().filter(pred);
  }

  /** Each kept frame mapped. */
  map<T>(fn: (f: Frame) => T): T[] {
    return this.slice().map(fn);
  }

  /** The oldest kept frame (the first received, unless frames were dropped). */
  first(): Frame | undefined {
    return this.kept[this.head];
  }
}
