/**
 * Used (signer, nonce) pairs over a fleet: claimed with SET NX, so a nonce accepted by one member is
 * refused by every other. A used nonce is kept until its signature expires by Redis's clock (the one
 * time source of the fleet), and by the clock of the member that claimed it if that says later, plus
 * NONCE_SKEW_MS: members' clocks differ (each sandbox's clock can be moved forward by its control
 * plane, and machines drift), and a member whose clock runs behind still accepts the signature, so
 * the nonce must outlive it by any member's clock, never lapse early by the claiming member's.
 *
 * Redis can lose them (recovery.ts): a nonce is refused while the fleet restores its shared state, when
 * it is stamped more than the lead ahead of Redis's clock, and, after a loss, unless it is stamped after
 * the loss's floor; a claim is confirmed against the generation marker, so one that landed in an
 * emptied Redis is refused, never taken for a first use.
 */
import type { Clock } from '../clock';
import type { NonceStore } from '../state/ports';
import { keys } from './keys';
import { guarded, type RedisClient as Redis } from './connect';
import { answer, REDIS_NOW, run, script } from './scripts';
import type { FaultSink } from './slots';
import { stampOf, type Generation } from './recovery';
import { RpcFailure } from '../rpc';

/** How long a used nonce outlives its signature, for members whose clocks run behind Redis's. */
export const NONCE_SKEW_MS = 5 * 60_000;

/**
 * KEYS: nonce; ARGV: signature expiry (ms), the member's now (ms), skew ms, the nonce's stamp (-1: none),
 * lead ms. 1 when claimed, 0 when used, {now} when stamped too far ahead (nothing claimed).
 */
const CLAIM = script(
  'xsbNonceClaim',
  1,
  `${REDIS_NOW}
if tonumber(ARGV[4]) > now + tonumber(ARGV[5]) then return {now} end
local expiry = tonumber(ARGV[1])
local keep = math.max(expiry - now, expiry - tonumber(ARGV[2]), 0) + tonumber(ARGV[3])
if redis.call('SET', KEYS[1], '1', 'PX', math.ceil(keep), 'NX') then return 1 end
return 0`,
  (raw): number | { ahead: number } | undefined =>
    Array.isArray(raw) && Number.isInteger(raw[0]) ? { ahead: raw[0] as number } : answer.int(raw),
);

const denied = (data: string) => RpcFailure.of('AUTH_INVALID_ACTION_SIGNATURE', data);

/** How a nonce carries its time, as the refusals say it. */
const STAMP_TEXT = '13 digits are its time in ms, as every public client makes it';

/** The fleet's book of used nonces. */
export class RedisNonces implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly generation: Generation,
    private readonly fault: FaultSink,
  ) {}

  /** Whether a signer already used this nonce anywhere in the fleet (refused while the state is restored). */
  async has(signer: string, nonce: string): Promise<boolean> {
    this.generation.refuseWhileRestoring();
    this.refuseBeforeFloor(nonce, stampOf(nonce));
    const report = (err: unknown) => this.fault('reading a used nonce', err);
    return (await guarded(() => this.redis.exists(keys.nonce(signer, nonce)), report)) === 1;
  }

  /**
   * Record the nonce as used until its signature expires (see above); false when some member recorded it
   * first. Throws the refusal of a nonce the loss of the shared state could let back in (see above).
   */
  async claim(signer: string, nonce: string, expiresAtMs: number): Promise<boolean> {
    const { generation } = this;
    generation.refuseWhileRestoring();
    const stamp = stampOf(nonce);
    this.refuseBeforeFloor(nonce, stamp);
    const args = [Math.ceil(expiresAtMs), Math.floor(this.clock.now()), NONCE_SKEW_MS, stamp ?? -1, generation.lead];
    const report = (err: unknown) => this.fault('claiming a nonce', err);
    const claimed = await guarded(() => run(this.redis, CLAIM, [keys.nonce(signer, nonce)], args), report);
    if (typeof claimed === 'object')
      throw denied(
        `nonce ${nonce} is stamped ${stamp} ms, more than ${generation.lead} ms ahead of the exchange's clock ` +
          `(${claimed.ahead} ms): a nonce's leading ${STAMP_TEXT}`,
      );
    await generation.confirm('claiming a nonce');
    // The floor may have been raised by the member that saw a loss first.
    this.refuseBeforeFloor(nonce, stamp);
    return claimed === 1;
  }

  /** After a loss: refuse a nonce not stamped after the floor (it may have been used before the loss). */
  private refuseBeforeFloor(nonce: string, stamp: number | null): void {
    const floor = this.generation.floor;
    if (floor === 0 || (stamp !== null && stamp > floor)) return;
    throw denied(
      `nonce ${nonce} is not newer than the moment the exchange's shared state was lost (${floor} ms by its ` +
        `clock): a signature made before the loss cannot be used again; sign afresh (a nonce's leading ${STAMP_TEXT})`,
    );
  }

  /** Redis expires them itself. */
  forgetExpired(): void {}
}
