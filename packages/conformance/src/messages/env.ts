/**
 * What every part of a message run shares: the spec, its schemas, the run's transcript, the bound of a
 * reply, and the connections: per address one for valid messages (reopened when the server closed it)
 * and one for invalid ones (which a server may close at will), each feeding the address's ledger.
 */
import { MsgSocket, type InFrame } from './socket';
import { Ledger } from './ledger';
import type { Address } from './addresses';
import type { SchemaSet } from '../generate/schema-set';
import type { Transcript } from '../transcript';
import type { MsgSpec, WireOperationShape } from './wire-shape';
import type { InputCase } from '../generate/cases';
import type { ReplayCall } from '../generate/replay-file';

/** A failing case as a replay file records it (written by the run's recorder, when there is one). */
export interface MsgFailure {
  op: WireOperationShape;
  c: InputCase;
  /** The smallest failing call (the original when shrinking found none smaller). */
  call: ReplayCall;
  original?: ReplayCall;
  shrinkSteps: number;
}

export class MsgEnv {
  readonly ledgers = new Map<Address, Ledger>();
  private readonly sockets = new Map<string, MsgSocket>();
  private opened = 0;
  private correlation = 0;

  constructor(
    readonly spec: MsgSpec,
    readonly schemas: SchemaSet,
    /** Where frames are recorded: the run sets each check's own transcript as the check starts. */
    public transcript: Transcript,
    readonly addresses: Address[],
    readonly o: {
      replyMs: number;
      seed: number;
      randomCases: number;
      shrinkCalls: number;
      deadline: number;
      onFailure?: (f: MsgFailure) => void;
    },
  ) {
    for (const a of addresses) this.ledgers.set(a, new Ledger(spec, schemas, a));
  }

  ledger(a: Address): Ledger {
    return this.ledgers.get(a)!;
  }

  /** The open connection of an address for valid (`main`) or invalid (`scratch`) messages, opened when needed. */
  async socket(a: Address, kind: 'main' | 'scratch'): Promise<MsgSocket> {
    const key = `${kind} ${a.url}`;
    const open = this.sockets.get(key);
    if (open && !open.closed) return open;
    const label = `${kind === 'main' ? 'c' : 'x'}${++this.opened}`;
    const ledger = this.ledger(a);
    const sink = (f: InFrame) => ledger.judge(f, kind === 'scratch');
    const s = await MsgSocket.open(a.url, () => this.transcript, label, Math.max(this.o.replyMs, 3000), sink);
    this.sockets.set(key, s);
    return s;
  }

  /** A correlation value no other request of the run carries. */
  nextCorrelation(type: 'number' | 'string' | null): number | string {
    this.correlation++;
    return type === 'string' ? `conformance-${this.correlation}` : this.correlation;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sockets.values()].map((s) => s.close()));
  }
}
