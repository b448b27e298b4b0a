/**
 * The RFQ desk's handover across a fleet. The member serving the desk (the owner of its home
 * instrument's book: rfq-route.ts) keeps the open RFQs and quotes in Redis as they change, fenced by
 * the home's lease as a book's resting orders are (a member that lost the lease unseen cannot
 * overwrite them); the next owner takes them over when it takes the lease, and a member whose lease
 * went forgets its own. When Redis comes back (empty, perhaps), the owner writes them again.
 */
import type { RedisClient as Redis } from './connect';
import type { RfqHandover } from '../state/ports';
import { keys } from './keys';
import { FENCE } from './leases';
import { answer, run, script } from './scripts';
import type { FaultSink } from './slots';

/** KEYS: lease, epoch, rfqs; ARGV: member, epoch, then field, record, …: the desk's open records, whole. */
const RFQ_REWRITE = script(
  'xsbRfqRewrite',
  3,
  `${FENCE}
redis.call('DEL', KEYS[3])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
return 1`,
  answer.int,
);

/** Keeps the desk's open records for the next member serving it, and takes them over. */
export class RfqKeep {
  /** The home's epoch whose desk this member holds (0: none). */
  private held = 0;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly member: string,
    private readonly home: string,
    /** The epoch of the home's lease while this member holds it, else 0 (leases.ts). */
    private readonly epochOf: (instrument: string) => number,
    private readonly desk: RfqHandover,
    private readonly fault: FaultSink,
  ) {
    desk.watch(() => this.changed());
  }

  /** After each lease cycle: take the desk over when the home became ours, forget it when it went. */
  async follow(): Promise<void> {
    const epoch = this.epochOf(this.home);
    if (epoch === this.held) return;
    if (epoch === 0) {
      this.held = 0;
      return this.desk.forget();
    }
    // Held only once taken over: a read that failed is tried again at the next cycle.
    const kept = await this.redis.hgetall(keys.rfqs(this.home));
    // A lease lost and taken back within one cycle (a new epoch): what another member filled or cancelled
    // meanwhile is in Redis, and this member's copy is stale (a quote filled there would open again here).
    if (this.held !== 0) this.desk.forget();
    this.desk.takeOver(kept);
    this.held = epoch;
    // What changed while the records were read is written with them.
    this.changed();
  }

  /** An RFQ or quote changed: write the open ones once the change is done (changes in one call coalesce). */
  private changed(): void {
    if (this.dirty || this.held === 0) return;
    this.dirty = true;
    this.writing = this.writing.then(() => {
      this.dirty = false;
      return this.write();
    });
  }

  /**
   * The writes asked for so far, done (never rejects: a failed write is reported where it runs). Awaited
   * before the home's lease may go, so the next member never restores an RFQ or quote as it was before
   * this member's last change (a filled quote open again).
   */
  flush(): Promise<void> {
    return this.writing;
  }

  /** Write the open records again (Redis came back, and may have come back empty). */
  rewrite(): Promise<void> {
    this.writing = this.writing.then(() => this.write());
    return this.writing;
  }

  private async write(): Promise<void> {
    const epoch = this.held;
    if (epoch === 0) return;
    const pairs = this.desk.openRecords().flat();
    const fenced = [keys.lease(this.home), keys.epoch(this.home), keys.rfqs(this.home)];
    try {
      if ((await run(this.redis, RFQ_REWRITE, fenced, [this.member, epoch, ...pairs])) === 0)
        throw new Error(
          `the lease of ${this.home} is no longer this member's at epoch ${epoch}: ` +
            'the write was refused (the next member serving the RFQs keeps them)',
        );
    } catch (err) {
      this.fault('keeping the open RFQs and quotes for the next member serving them', err);
    }
  }
}
