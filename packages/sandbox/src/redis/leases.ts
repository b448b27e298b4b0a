/**
 * Which member owns each instrument's book: a lease in Redis (the owner's id, expiring unless renewed).
 * Every cycle a member renews its leases and takes free ones up to its fair share (instruments divided
 * by live members, rounded up), and gives one back when it holds more than that, so a member that joins
 * gets its share. A member that dies stops renewing: its leases expire within LEASE_MS and the others
 * take them at their next cycle, so an instrument is ownerless for at most LEASE_MS + CYCLE_MS.
 *
 * Resting user orders survive a move: the owner keeps each instrument's open user orders in Redis as
 * they change, and the next owner puts them back on its book (the orders keep their ids, prices,
 * remaining amounts and fills; nothing is pushed, since nothing changed for their owners).
 */
import type { RedisClient as Redis } from './connect';
import type { Ownership } from '../market';
import type { Resting } from '../market/instrument';
import type { BookKeeper } from '../state/ports';
import { keys } from './keys';
import { answer, run, script } from './scripts';
import type { FaultSink } from './slots';

/**
 * A lease lasts this long unless renewed: ten renewal cycles, since a loaded machine can stall a live
 * owner's event loop for seconds (at 3 s, a busy CI run saw live members taken for dead).
 */
export const LEASE_MS = 10_000;
/** Leases are renewed, and free ones taken, this often. */
export const CYCLE_MS = 1000;

/**
 * KEYS: lease, epoch; ARGV: member, lease ms, may take ('1'), our epoch when we held it ('0' if not).
 * Returns {status, epoch, owner}: 1 renewed, 2 taken, 0 another's or free. A lease we held that Redis
 * lost (it restarted empty, or an outage outlasted the lease) and nobody took is ours again, epoch kept.
 */
const CLAIM = script(
  'xsbLeaseClaim',
  2,
  `
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tonumber(redis.call('GET', KEYS[2]) or '0'), owner}
end
if not owner and ARGV[4] ~= '0' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('SET', KEYS[2], ARGV[4], 'NX')
  return {1, tonumber(redis.call('GET', KEYS[2])), ARGV[1]}
end
if not owner and ARGV[3] == '1' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {2, redis.call('INCR', KEYS[2]), ARGV[1]}
end
return {0, 0, owner or ''}`,
  (raw): [number, number, string] | undefined =>
    Array.isArray(raw) &&
    raw.length === 3 &&
    Number.isInteger(raw[0]) &&
    Number.isInteger(raw[1]) &&
    typeof raw[2] === 'string'
      ? [raw[0], raw[1], raw[2]]
      : undefined,
);

/** KEYS: lease; ARGV: member. Deletes the lease only if it is ours. */
const RELEASE = script(
  'xsbLeaseRelease',
  1,
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
  answer.int,
);

/**
 * The fence of every book write: KEYS lease, epoch, book; ARGV member, epoch, then the write. Written
 * only while the lease is ours at our epoch, so a member that lost its lease unseen (stalled past it)
 * cannot overwrite the book its successor keeps. 1 written, 0 fenced off.
 */
export const FENCE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] or tonumber(redis.call('GET', KEYS[2]) or '0') ~= tonumber(ARGV[2]) then
  return 0
end
`;

/** ARGV[3]: order id, ARGV[4]: its record, or '' when it is closed (forgotten). */
const BOOK_WRITE = script(
  'xsbBookWrite',
  3,
  `${FENCE}
if ARGV[4] == '' then redis.call('HDEL', KEYS[3], ARGV[3]) else redis.call('HSET', KEYS[3], ARGV[3], ARGV[4]) end
return 1`,
  answer.int,
);

/** ARGV[3…]: order id, record, … : the whole book, written again. */
const BOOK_REWRITE = script(
  'xsbBookRewrite',
  3,
  `${FENCE}
redis.call('DEL', KEYS[3])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1]) end
return 1`,
  answer.int,
);

/** The prefix of a book's fields holding trigger and TWAP orders (the others are resting orders). */
const WAITING = 'waiting:';

/** A resting order as kept in Redis (money as decimal text). */
export function serializeResting(r: Resting): string {
  return JSON.stringify({ ...r, notional: r.notional.toString(), fee: r.fee.toString() });
}

function parseResting(text: string): Resting {
  const r = JSON.parse(text) as Resting & { notional: string; fee: string };
  return { ...r, notional: BigInt(r.notional), fee: BigInt(r.fee) };
}

/** This member's leases and what it knows of the others'. */
export class Leases implements Ownership {
  private readonly mine = new Map<string, number>();
  private readonly owners = new Map<string, string>();
  private renewedAt = 0;

  constructor(
    private readonly redis: Redis,
    private readonly member: string,
    private readonly instruments: readonly string[],
    private readonly fault: FaultSink,
  ) {}

  /** Whether this member owns the instrument's book now (not once its leases may have lapsed unseen). */
  owns(instrument: string): boolean {
    return this.mine.has(instrument) && Date.now() - this.renewedAt < LEASE_MS;
  }

  epoch(instrument: string): number {
    return this.mine.get(instrument) ?? 0;
  }

  /** The owner of an instrument at the last cycle, or null when it had none. */
  ownerOf(instrument: string): string | null {
    return this.owners.get(instrument) ?? null;
  }

  /** The instruments this member owns. */
  owned(): string[] {
    return this.instruments.filter((i) => this.owns(i));
  }

  /**
   * One cycle: renew, take up to the fair share, give one back above it. While the fleet restores a lost
   * state (`balance` false) only our own leases are held again: the live count is not known yet, and a
   * lease another member has not held again yet is its, not free.
   */
  async cycle(liveMembers: number, books: BookKeeper, balance = true): Promise<void> {
    const started = Date.now();
    const share = Math.ceil(this.instruments.length / Math.max(1, liveMembers));
    for (const name of this.instruments) {
      const mayTake = balance && this.mine.size < share ? '1' : '0';
      const ours = this.mine.get(name) ?? 0;
      const [status, epoch, owner] = await run(
        this.redis,
        CLAIM,
        [keys.lease(name), keys.epoch(name)],
        [this.member, LEASE_MS, mayTake, ours],
      );
      if (owner) this.owners.set(name, owner);
      else this.owners.delete(name);
      if (status === 0) {
        if (this.mine.has(name)) this.lose(name, books);
      } else if (status === 2 || this.mine.get(name) !== epoch) {
        // Taken, or ours at an epoch we did not know (the book moved meanwhile): Redis's book is the one.
        if (this.mine.has(name)) this.lose(name, books);
        await this.take(name, epoch, books);
      }
    }
    this.renewedAt = started;
    if (balance && this.mine.size > share) await this.giveBack([...this.mine.keys()].pop()!, books);
  }

  private async take(name: string, epoch: number, books: BookKeeper): Promise<void> {
    const kept = await this.redis.hgetall(keys.book(name));
    this.mine.set(name, epoch);
    for (const [field, text] of Object.entries(kept))
      if (!field.startsWith(WAITING)) books.restore(parseResting(text));
      else if (!books.restoreWaiting(text)) this.fault(`taking back ${field} of ${name}`, new Error('not an order'));
  }

  private lose(name: string, books: BookKeeper): void {
    this.mine.delete(name);
    books.dropBook(name);
  }

  /** Give an instrument back (its orders stay in Redis for the next owner). */
  async giveBack(name: string, books: BookKeeper): Promise<void> {
    this.lose(name, books);
    await run(this.redis, RELEASE, [keys.lease(name)], [this.member]);
    this.owners.delete(name);
  }

  /** Give every lease back (this member is closing), so the others take them at their next cycle. */
  async releaseAll(books: BookKeeper): Promise<void> {
    for (const name of [...this.mine.keys()]) await this.giveBack(name, books);
  }

  /** The keys a fenced book write of an instrument takes. */
  private fenced(name: string): string[] {
    return [keys.lease(name), keys.epoch(name), keys.book(name)];
  }

  /** Write the resting orders of our books again (Redis came back, and may have come back empty). */
  async rewriteBooks(books: BookKeeper): Promise<void> {
    for (const [name, epoch] of this.mine) {
      const pairs = books.restingIn(name).flatMap((r) => [r.order.order_id, serializeResting(r)]);
      for (const [id, text] of books.waitingIn(name)) pairs.push(WAITING + id, text);
      const written = await run(this.redis, BOOK_REWRITE, this.fenced(name), [this.member, epoch, ...pairs]);
      if (written === 0) this.fault(`writing the book of ${name} again`, fencedOff(name, epoch));
    }
  }

  /**
   * Keep an owned instrument's resting user order for the next owner, or forget it once it is closed;
   * fenced by our lease's epoch. A failure is reported (and the book is written whole again once
   * Redis is back: rewriteBooks).
   */
  record(instrument: string, orderId: string, resting: Resting | undefined): void {
    this.keep(instrument, orderId, resting ? serializeResting(resting) : '');
  }

  /** Keep an owned instrument's trigger or TWAP order (its text, or '' once it no longer waits), as record. */
  recordWaiting(instrument: string, orderId: string, text: string | undefined): void {
    this.keep(instrument, WAITING + orderId, text ?? '');
  }

  private keep(instrument: string, orderId: string, text: string): void {
    const epoch = this.mine.get(instrument);
    if (epoch === undefined) return;
    run(this.redis, BOOK_WRITE, this.fenced(instrument), [this.member, epoch, orderId, text]).then(
      (written) => {
        if (written === 0) this.fault(`keeping order ${orderId} of ${instrument}`, fencedOff(instrument, epoch));
      },
      (err) => this.fault(`keeping order ${orderId} of ${instrument} for the next owner`, err),
    );
  }
}

/** A book write refused: the lease is no longer ours at this epoch. */
function fencedOff(instrument: string, epoch: number): Error {
  return new Error(
    `the lease of ${instrument} is no longer this member's at epoch ${epoch}: ` +
      'the write was refused (the next owner keeps the book)',
  );
}
