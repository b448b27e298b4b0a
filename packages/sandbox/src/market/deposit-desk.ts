/**
 * Deposit addresses and deposits on their way (public/register_deposit_address,
 * public/get_pending_deposits). The chain's part stands in as a control-plane event: a `deposit` with
 * `pending: true`, or one sent to a registered deposit address, is seen on chain and waits
 * CONFIRM_MS on the sandbox clock, listed as pending, before the subaccount is credited as any
 * deposit is (funds.ts). A deposit address is derived from (wallet, subaccount, deposit type), so the
 * same registration always gives the same address.
 */
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { DepositEntry, PendingDepositEntry } from '@exchange-api/types';
import { derivedSubaccounts, type Accounts } from '../accounts';
import type { Clock } from '../clock';
import { fmt } from '../fixed';
import { RpcFailure } from '../rpc';
import type { Funds } from './funds';
import { STANDARD_MANAGER_ID } from './rates';

/** Deposit addresses kept; past this many the oldest registration is forgotten. */
const MAX_ADDRESSES = 100_000;

/** How long a deposit seen on chain waits before it is credited: the sandbox's confirmation time. */
export const CONFIRM_MS = 60_000;

type DepositType = 'standard' | 'instant' | 'direct';

interface Registered {
  wallet: string;
  subaccount: number;
  type: DepositType;
}

interface Waiting {
  entry: PendingDepositEntry;
  wallet: string;
  amount: bigint;
}

/** Deposit addresses and the deposits waiting for confirmation. */
export class DepositDesk {
  private readonly addresses = new Map<string, Registered>();
  private readonly waiting: Waiting[] = [];
  private actions = 0;

  constructor(
    private readonly accounts: Accounts,
    private readonly funds: Funds,
    private readonly clock: Clock,
  ) {}

  /** The deposit address of a wallet's subaccount (its first when none is named), registered. */
  register(wallet: string, type: DepositType, subaccount?: number | null) {
    // A public call: a wallet not seen yet gets no account by it (its first deposit opens one).
    const subs = this.accounts.knows(wallet) ? this.accounts.subaccountsOf(wallet) : derivedSubaccounts(wallet);
    const sub = subaccount ?? subs[0]!;
    if (!subs.includes(sub))
      throw RpcFailure.of('AUTH_ACCESS_DENIED', `subaccount ${sub} is not wallet ${wallet}'s (${subs.join(', ')})`);
    const hash = keccak256(toUtf8Bytes(`exchange-api sandbox deposit address ${wallet} ${sub} ${type}`));
    const deposit_address = getAddress(`0x${hash.slice(-40)}`);
    this.addresses.delete(deposit_address);
    this.addresses.set(deposit_address, { wallet, subaccount: sub, type });
    // Registered by anyone without a login: the oldest are forgotten past a bound, so memory stays flat.
    if (this.addresses.size > MAX_ADDRESSES) this.addresses.delete(this.addresses.keys().next().value!);
    return { deposit_address, deposit_type: type, manager_id: STANDARD_MANAGER_ID, subaccount_id: sub, wallet };
  }

  /** The wallet and subaccount a registered deposit address credits, or undefined. */
  resolve(address: string): Registered | undefined {
    return this.addresses.get(address);
  }

  /** A deposit seen on chain: listed as pending until CONFIRM_MS have passed on the clock. */
  seen(wallet: string, asset: string, amount: bigint, subaccount?: number, type: DepositType = 'standard') {
    this.funds.assetOrRefuse(asset);
    if (amount <= 0n) throw RpcFailure.of('RPC_TRANSFER_REJECT', `amount must be above zero (got ${fmt(amount)})`);
    const subs = this.accounts.subaccountsOf(wallet);
    const sub = subaccount ?? subs[0]!;
    if (!subs.includes(sub))
      throw RpcFailure.of('RPC_TRANSFER_REJECT', `subaccount ${sub} is not wallet ${wallet}'s (${subs.join(', ')})`);
    this.actions++;
    const now = this.clock.now();
    const tx = keccak256(toUtf8Bytes(`exchange-api sandbox chain deposit ${this.actions} ${wallet}`));
    const entry: PendingDepositEntry = {
      action_id: this.actions,
      action_type: 'deposit',
      amount: fmt(amount),
      asset,
      block_number: Math.floor(now / 2000),
      deposit_type: type,
      log_index: 0,
      manager_id: STANDARD_MANAGER_ID,
      status: 'pending',
      subaccount_id: sub,
      timestamp: now,
      tx_hash: tx,
      updated_at_ms: now,
    };
    this.waiting.push({ entry, wallet, amount });
    return entry;
  }

  /** The wallet's deposits still waiting. */
  pendingOf(wallet: string): PendingDepositEntry[] {
    return this.waiting.filter((w) => w.wallet === wallet).map((w) => w.entry);
  }

  /** Credit every deposit whose confirmation time has passed; returns the deposit records made. */
  settle(now: number): DepositEntry[] {
    const done: DepositEntry[] = [];
    while (this.waiting.length > 0 && this.waiting[0]!.entry.timestamp + CONFIRM_MS <= now) {
      const w = this.waiting.shift()!;
      done.push(this.funds.deposit(w.wallet, w.entry.asset, w.amount, w.entry.subaccount_id));
    }
    return done;
  }
}
