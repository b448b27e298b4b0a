/**
 * What arrived at one address that no request took: each frame judged against the messages of the
 * receive operations there (counted per operation, valid or with why not), else named as a reply that
 * came when no request of its operation was open, else as a message of no receive operation there.
 */
import { classify, messagesOf } from './classify';
import type { SchemaSet } from '../generate/schema-set';
import type { Address } from './addresses';
import type { InFrame } from './socket';
import type { MsgSpec } from './wire-shape';

/** How many frames of each kind a ledger quotes in a finding. */
const QUOTES = 3;

export interface OpTally {
  valid: number;
  invalidCount: number;
  /** The first few invalid ones, quoted. */
  invalid: { text: string; why: string; message: string }[];
}

export class Ledger {
  /** Every frame that arrived at the address, taken by a request or not. */
  frames = 0;
  readonly byOp = new Map<string, OpTally>();
  /**
   * Frames of no receive operation there and no reply (or, on a connection of valid requests, an unasked
   * reply); `json: false` for a frame that is no JSON at all (no contentType means JSON).
   */
  readonly unknown: { text: string; json: boolean }[] = [];
  unknownCount = 0;
  private readonly receiveIds: string[];
  private readonly replyIds: string[];

  constructor(
    private readonly spec: MsgSpec,
    private readonly schemas: SchemaSet,
    readonly address: Address,
  ) {
    for (const op of address.receives) this.byOp.set(op.id, { valid: 0, invalidCount: 0, invalid: [] });
    this.receiveIds = messagesOf(address.receives);
    this.replyIds = [...new Set(address.sends.flatMap((o) => o.reply?.messages ?? []))];
  }

  /** Count a frame a request took as its reply (or as a reply that did not carry its value). */
  taken(): void {
    this.frames++;
  }

  /** Whether a frame is a message of a receive operation here (what a reply waiter lets pass). */
  isPush(frame: InFrame): boolean {
    return frame.value !== undefined && classify(this.spec, this.schemas, this.receiveIds, frame.value) !== null;
  }

  /**
   * Judge a frame nobody took. `repliesAccepted`: on a connection that sent invalid messages, a reply
   * the server chose to send (an error status, say) is no unasked frame, but it must still be valid.
   */
  judge(frame: InFrame, repliesAccepted: boolean): void {
    this.frames++;
    const match = frame.value === undefined ? null : classify(this.spec, this.schemas, this.receiveIds, frame.value);
    if (match) {
      const op = this.address.receives.find((o) => o.messages.includes(match.message))!;
      const tally = this.byOp.get(op.id)!;
      if (match.valid) tally.valid++;
      else if (tally.invalidCount++ < QUOTES)
        tally.invalid.push({ text: frame.text, why: match.why, message: match.message });
      return;
    }
    if (repliesAccepted && frame.value !== undefined) {
      const reply = classify(this.spec, this.schemas, this.replyIds, frame.value);
      if (reply?.valid) return;
    }
    this.unknownCount++;
    if (this.unknown.length < QUOTES) this.unknown.push({ text: frame.text, json: frame.value !== undefined });
  }
}
