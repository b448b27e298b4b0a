/**
 * Used (signer, nonce) pairs over a fleet: claimed with SET NX, so a nonce accepted by one member is
 * refused by every other. A used nonce is kept until its signature expires by Redis's clock (the one
 * time source of the fleet), and by the clock of the member that claimed it if that says later, plus
 * NONCE_SKEW_MS: members' clocks differ (each sandbox's clock can be moved forward by its control
 * plane, and machines drift), and a member whose clock runs behind still accepts the signature, so
 * the nonce must outlive it by any member's clock, never lapse early by the claiming member's.
 */
import type { Clock } from '../clock';
import type { NonceStore } from '../state/ports';
import { keys } from './keys';
import { guarded, type RedisClient as Redis } from './connect';
import { answer, REDIS_NOW, run, script } from './scripts';
import type { FaultSink } from './slots';

/** How long a used nonce outlives its signature, for members whose clocks run behind Redis's. */
export const NONCE_SKEW_MS = 5 * 60_000;

/** KEYS: nonce; ARGV: signature expiry (ms), the member's now (ms), skew ms. 1 when claimed, 0 when used. */
const CLAIM = script(
  'xsbNonceClaim',
  1,
  `${REDIS_NOW}
local expiry = tonumber(ARGV[1])
local keep = math.max(expiry - now, expiry - tonumber(ARGV[2]), 0) + tonumber(ARGV[3])
if redis.call('SET', KEYS[1], '1', 'PX', math.ceil(keep), 'NX') then return 1 end
return 0`,
  answer.int,
);

/** The fleet's book of used nonces. */
export class RedisNonces implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    private readonly fault: FaultSink,
  ) {}

  /** Whether a signer already used this nonce anywhere in the fleet. */
  async has(signer: string, nonce: string): Promise<boolean> {
    const report = (err: unknown) => this.fault('reading a used nonce', err);
    return (await guarded(() => this.redis.exists(keys.nonce(signer, nonce)), report)) === 1;
  }

  /** Record the nonce as used until its signature expires (see above); false when some member recorded it first. */
  async claim(signer: string, nonce: string, expiresAtMs: number): Promise<boolean> {
    const args = [Math.ceil(expiresAtMs), Math.floor(this.clock.now()), NONCE_SKEW_MS];
    const report = (err: unknown) => this.fault('claiming a nonce', err);
    return (await guarded(() => run(this.redis, CLAIM, [keys.nonce(signer, nonce)], args), report)) === 1;
  }

  /** Redis expires them itself. */
  forgetExpired(): void {}
}
