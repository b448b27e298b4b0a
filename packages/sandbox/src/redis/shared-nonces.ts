/**
 * Used (signer, nonce) pairs over a fleet: claimed with SET NX, so a nonce accepted by one member is
 * refused by every other, kept until its signature expires (nothing could replay it after).
 */
import type { Redis } from 'ioredis';
import type { Clock } from '../clock';
import { keys } from './keys';
import { guarded } from './connect';

/** The fleet's book of used nonces. */
export class SharedNonces {
  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  /** Whether a signer already used this nonce anywhere in the fleet. */
  async has(signer: string, nonce: string): Promise<boolean> {
    return (await guarded(() => this.redis.exists(keys.nonce(signer, nonce)))) === 1;
  }

  /** Record the nonce as used until `expiresAtMs`; false when some member recorded it first. */
  async claim(signer: string, nonce: string, expiresAtMs: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(expiresAtMs - this.clock.now()));
    const set = await guarded(() => this.redis.set(keys.nonce(signer, nonce), '1', 'PX', ms, 'NX'));
    return set === 'OK';
  }
}
