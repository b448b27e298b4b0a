/**
 * The simulated participants: real keys derived from the seed (so their addresses and signatures
 * repeat per seed), one subaccount each. Number 0 is the synthetic market maker; the others take
 * liquidity and quote RFQs.
 */
import { keccak256, toUtf8Bytes, Wallet } from 'ethers';
import { derivedSubaccounts, type Accounts } from '../accounts';
import type { Instruments } from './instruments';
import type { Random } from './random';
import type { Side } from './types';

/** How many participants the simulation has. */
const COUNTERPARTIES = 6;

/** A simulated participant with a real key. */
export interface Counterparty {
  wallet: Wallet;
  address: string;
  subaccount: number;
  lastNonce: bigint;
}

/** The simulation's participants, registered with the accounts: 10 000 000 USDC and 1000 of each spot base currency. */
export class Counterparties {
  readonly list: Counterparty[] = [];

  constructor(seed: number, accounts: Accounts, instruments: Instruments) {
    const starting: Record<string, string> = { USDC: '10000000' };
    for (const i of instruments.all()) if (i.cfg.instrument_type === 'erc20') starting[i.cfg.base_currency] = '1000';
    for (let i = 0; i < COUNTERPARTIES; i++) {
      const wallet = new Wallet(keccak256(toUtf8Bytes(`exchange-api sandbox counterparty ${seed} ${i}`)));
      const subaccount = derivedSubaccounts(wallet.address)[0]!;
      accounts.register(wallet.address, [subaccount], starting);
      this.list.push({ wallet, address: wallet.address, subaccount, lastNonce: 0n });
    }
  }

  /** The synthetic market maker, the maker of every fill against simulated liquidity. */
  get maker(): Counterparty {
    return this.list[0]!;
  }

  /** One of the takers (never the market maker), as the stream picks; returns its index too. */
  pickTaker(r: Random): { index: number; cp: Counterparty } {
    const index = 1 + Math.floor(r() * (COUNTERPARTIES - 1));
    return { index, cp: this.list[index]! };
  }

  /** A counterparty as one side of a fill. */
  side(c: Counterparty): Side {
    return { subaccount: c.subaccount, wallet: c.address, resting: null };
  }

  /** A strictly increasing nonce of the counterparty: milliseconds × 1000, bumped when the clock repeats. */
  nextNonce(c: Counterparty, now: number): string {
    let n = BigInt(Math.floor(now)) * 1000n;
    if (n <= c.lastNonce) n = c.lastNonce + 1n;
    c.lastNonce = n;
    return n.toString();
  }
}
