/**
 * public/get_latest_signed_feeds: the sandbox's oracle signs what its market shows now, per base
 * currency: the spot price, each perp's mark against spot (type `P`, the mid; `A` and `B`, the best ask
 * and bid), and the perp's funding rate; each valid for DEADLINE_MS. The signer is a key derived from
 * the seed, so a client can check a signature against the address in `signers`. The digest is the
 * sandbox's own layout (the venue's is not shown): keccak256 of the ABI encoding of the feed's kind,
 * currency, value × 10^18, confidence × 10^18, timestamp and deadline, signed as an Ethereum message.
 * The sandbox has no forward, rate or volatility model for its options, so those feeds are empty.
 */
import { AbiCoder, keccak256, toUtf8Bytes, Wallet } from 'ethers';
import type { GetLatestSignedFeedsResponse } from '@exchange-api/types';
import { fixed, fmt, ONE } from '../fixed';
import { RpcFailure } from '../rpc';
import { bookLevels } from './feeds';
import { mid } from './instrument';
import type { Instruments } from './instruments';
import { FUNDING_RATE_PER_HOUR } from './rates';

export const DEADLINE_MS = 60_000;
const SCALE = 10n ** 18n / ONE;

/** The oracle's feeds, signed. */
export class SignedFeeds {
  private readonly oracle: Wallet;

  constructor(
    private readonly instruments: Instruments,
    seed: number,
  ) {
    this.oracle = new Wallet(keccak256(toUtf8Bytes(`exchange-api sandbox oracle ${seed}`)));
  }

  /** The oracle's address. */
  get signer(): string {
    return this.oracle.address;
  }

  /** Sign one feed value; the signature and signer as the response carries them. */
  private sign(kind: string, currency: string, value: bigint, timestamp: number) {
    const data = AbiCoder.defaultAbiCoder().encode(
      ['string', 'string', 'int256', 'uint256', 'uint64', 'uint64'],
      [kind, currency, value * SCALE, 10n ** 18n, timestamp, timestamp + DEADLINE_MS],
    );
    return { signatures: [this.oracle.signMessageSync(keccak256(data))], signers: [this.oracle.address] };
  }

  /** The latest feeds of every base currency (or one), at `now`. */
  latest(now: number, currency?: string | null): GetLatestSignedFeedsResponse {
    const out: GetLatestSignedFeedsResponse = {
      spot_data: {},
      perp_data: {},
      funding_data: {},
      fwd_data: {},
      rate_data: {},
      vol_data: {},
    };
    if (currency != null && !this.instruments.currencies.has(currency))
      throw RpcFailure.of(
        'RPC_INVALID_PARAMS',
        `unknown currency ${JSON.stringify(currency).slice(0, 40)} ` +
          `(feeds: ${[...this.instruments.currencies].join(', ')})`,
      );
    const base = { confidence: '1', timestamp: now, deadline: now + DEADLINE_MS };
    for (const c of this.instruments.currencies) {
      if (currency != null && c !== currency) continue;
      const spot = this.instruments.spotPrice(c);
      out.spot_data[c] = { ...base, currency: c, price: fmt(spot), signatures: this.sign('spot', c, spot, now) };
      const perp = this.instruments.ofTypeAndCurrency('perp', c);
      if (!perp) continue;
      const top = bookLevels(perp, 1, 1);
      const sides: [string, bigint][] = [['P', mid(perp)]];
      if (top.asks[0]) sides.push(['A', fixed(top.asks[0][0])]);
      if (top.bids[0]) sides.push(['B', fixed(top.bids[0][0])]);
      out.perp_data[c] = {};
      for (const [type, price] of sides)
        out.perp_data[c][type] = {
          ...base,
          currency: c,
          type,
          spot_diff_value: fmt(price - spot),
          signatures: this.sign(`perp ${type}`, c, price - spot, now),
        };
      const rate = fixed(FUNDING_RATE_PER_HOUR);
      out.funding_data[c] = {
        ...base,
        currency: c,
        funding_rate: FUNDING_RATE_PER_HOUR,
        signatures: this.sign('funding', c, rate, now),
      };
    }
    return out;
  }
}
