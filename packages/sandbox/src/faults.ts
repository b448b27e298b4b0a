/**
 * Failures the sandbox survives but must not hide: a timer step that throws (the market tick, an
 * interval cadence, the heartbeat: its channels would go quiet, and a conformance run would then read
 * "inconclusive" with no word why), and errors of the server and its sockets (an HTTP parse error, a
 * WebSocket protocol error, a request that failed with -32603). Each is counted (the control plane's
 * `GET /control/status` shows the counts and the last one) and written to stderr once per distinct
 * failure: a tick failing every 100 ms is one line, not ten a second. A peer that went away mid-write
 * (a reset, a broken pipe) is counted but not written: that is how clients leave, not a failure.
 */

/** What failed: a timer step, or the server (its sockets, its requests). */
export type FaultKind = 'ticks' | 'server';

/** The counts `GET /control/status` reports. */
export interface FaultCounts {
  ticks: number;
  server: number;
  /** The last failure, `where: message`, or null when none. */
  last: string | null;
}

/** Where a fault line goes; stderr unless a test gives its own. */
export type FaultWriter = (line: string) => void;

/**
 * Distinct failures written out at most. Peers choose some of these messages (a bad frame, a bad
 * request line), so beyond this they are only counted: stderr stays bounded whatever a peer sends.
 */
export const MAX_DISTINCT_FAULTS = 20;

const stderrWriter: FaultWriter = (line) => void process.stderr.write(`${line}\n`);

/** Error codes of a peer that went away; counted, never written. */
const PEER_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** The message of a thrown value, with its error code and, for our own bugs, the frame that threw. */
function describe(err: unknown, withFrame: boolean): string {
  if (!(err instanceof Error)) return `thrown ${typeof err}: ${String(err).slice(0, 200)}`;
  const code = (err as NodeJS.ErrnoException).code;
  const head = `${err.name}: ${err.message.slice(0, 300)}${code ? ` (${code})` : ''}`;
  const frame = withFrame ? /\n\s+at (.*)/.exec(err.stack ?? '')?.[1] : undefined;
  return frame ? `${head} at ${frame}` : head;
}

/** The failures of one sandbox. */
export class Faults {
  private readonly counts = { ticks: 0, server: 0 };
  private last: string | null = null;
  private readonly written = new Set<string>();

  constructor(private readonly write: FaultWriter = stderrWriter) {}

  /** Count a failure; write it out unless the same one was written before (or too many distinct ones were). */
  report(kind: FaultKind, where: string, err: unknown): void {
    this.counts[kind]++;
    // A timer step that throws is our bug: where it threw is worth the line. A socket error is the peer's doing.
    const text = describe(err, kind === 'ticks');
    this.last = `${where}: ${text}`;
    if (PEER_GONE.has((err as NodeJS.ErrnoException)?.code ?? '')) return;
    const key = `${kind}\n${where}\n${text}`;
    if (this.written.has(key) || this.written.size > MAX_DISTINCT_FAULTS) return;
    this.written.add(key);
    if (this.written.size > MAX_DISTINCT_FAULTS) {
      this.write(
        `sandbox: more than ${MAX_DISTINCT_FAULTS} distinct failures; further ones ` +
          `are only counted (GET /control/status)`,
      );
      return;
    }
    const what = kind === 'ticks' ? 'failed (the sandbox goes on; reported once)' : 'error (reported once)';
    this.write(`sandbox: ${where} ${what}: ${text}`);
  }

  /** The counts and the last failure. */
  status(): FaultCounts {
    return { ...this.counts, last: this.last };
  }
}
