/**
 * Money moving in and out of subaccounts: deposits (the chain's part stands in as a control-plane
 * event), spot transfers between a wallet's own subaccounts (a transfer to subaccount 0 opens a new
 * one), and withdrawals, each debited or credited at once, pushed on `{subaccount_id}.balances`, and
 * kept for the deposit, withdrawal and transfer histories. No fee is charged, so a signed
 * `max_fee_usd` is never exceeded. A transfer or withdrawal may not take more of an asset than the
 * subaccount holds, nor leave it short of the margin or cash its positions and open orders need.
 *
 * The spot assets are the quote currencies of the instruments (6 decimals, as USDC) and the base
 * currencies of the spot (erc20) instruments (18 decimals, the instrument's own asset).
 */
import { keccak256, toUtf8Bytes } from 'ethers';
import type { DepositEntry, TransferEntry, WithdrawalEntry } from '@exchange-api/types';
import type { Accounts } from '../accounts';
import { address } from '../channels';
import type { Clock } from '../clock';
import { fmt } from '../fixed';
import { RpcFailure } from '../rpc';
import { assetOf } from './instrument';
import type { Instruments } from './instruments';
import type { Margin } from './margin';
import type { Streams } from './random';
import type { Publisher } from './types';

/** Records kept per kind; the oldest go first, so that memory stays flat on a long run. */
const KEPT = 5000;

/** A spot asset as the signatures of transfers and withdrawals name it: its address and its ERC-20 decimals. */
export interface SpotAsset {
  address: string;
  decimals: number;
}

/** A spot asset that is no instrument's (a quote currency): its address, stable per name. */
export function cashAssetOf(name: string): SpotAsset {
  // The address public/get_all_currencies gives the currency's spot asset: clients sign with what it says.
  const { address } = assetOf({ instrument_name: name, instrument_type: 'erc20', base_currency: name });
  return { address, decimals: 6 };
}

const invalid = (data: string) => RpcFailure.of('RPC_TRANSFER_REJECT', data);

/** The kind of shared record of the whitelisted recipients. */
const WHITELISTS = 'whitelists';

type Kept<T> = T & { wallets: string[] };

/** Deposits, withdrawals and own transfers, and the histories they leave. */
export class Funds {
  private readonly transfers: Kept<TransferEntry>[] = [];
  private readonly withdrawals: Kept<WithdrawalEntry>[] = [];
  private readonly deposits: Kept<DepositEntry>[] = [];
  private operations = 0;
  /** Per wallet: the wallets its session keys may pay, and its external transfers may go to. */
  private readonly whitelists = new Map<string, Set<string>>();

  constructor(
    private readonly accounts: Accounts,
    private readonly instruments: Instruments,
    private readonly margin: Margin,
    private readonly streams: Streams,
    private readonly clock: Clock,
    private readonly out: Publisher,
  ) {
    // Every member pays by the same list (a fleet: state/ports.ts, SharedRecords).
    accounts.shared.on(WHITELISTS, (wallet, list) => void this.whitelists.set(wallet, new Set(list as string[])));
  }

  /** The spot asset of a name, or undefined when the sandbox has none of that name. */
  spotAsset(name: string): SpotAsset | undefined {
    const all = [...this.instruments.all()];
    const spot = all.find((i) => i.cfg.instrument_type === 'erc20' && i.cfg.base_currency === name);
    if (spot) return { address: spot.asset.address, decimals: 18 };
    return all.some((i) => i.cfg.quote_currency === name) ? cashAssetOf(name) : undefined;
  }

  /** The spot asset of a name, or -32602 naming the ones there are. */
  assetOrRefuse(name: string): SpotAsset {
    const asset = this.spotAsset(name);
    if (!asset) {
      const names = new Set<string>();
      for (const i of this.instruments.all()) {
        names.add(i.cfg.quote_currency);
        if (i.cfg.instrument_type === 'erc20') names.add(i.cfg.base_currency);
      }
      throw RpcFailure.of(
        'RPC_ASSET_NOT_FOUND',
        `/asset_name: ${JSON.stringify(name).slice(0, 40)} is no spot asset here (${[...names].join(', ')})`,
      );
    }
    return asset;
  }

  private operation() {
    this.operations++;
    const op = this.streams.uuid('fund operations');
    return {
      op_uuid: op,
      operation_id: this.operations,
      batch_uuid: op,
      tx_hash: keccak256(toUtf8Bytes(`exchange-api sandbox tx ${op}`)),
    };
  }

  /** Move a balance and push it, with the venue's update type. */
  private move(subaccount: number, asset: string, delta: bigint, type: string): void {
    const u = this.accounts.adjust(subaccount, asset, delta);
    this.out.publish(address('subaccountBalances', { subaccount_id: subaccount }), [
      { name: u.name, new_balance: fmt(u.next), previous_balance: fmt(u.previous), update_type: type },
    ]);
  }

  /**
   * Take `amount` of `asset` out of a subaccount, or refuse naming why: more than it holds, or what
   * would leave its positions and open orders short (checked with the amount gone, then put back).
   */
  private debit(subaccount: number, asset: string, amount: bigint, type: string): void {
    const held = this.accounts.balance(subaccount, asset);
    if (amount > held)
      throw invalid(`amount ${fmt(amount)} ${asset} is more than subaccount ${subaccount} holds (${fmt(held)})`);
    this.accounts.adjust(subaccount, asset, -amount);
    try {
      this.assertStillCarries(subaccount);
    } catch (err) {
      this.accounts.adjust(subaccount, asset, amount);
      if (err instanceof RpcFailure)
        throw invalid(`taking ${fmt(amount)} ${asset} from subaccount ${subaccount} would leave it short: ${err.data}`);
      throw err;
    }
    this.accounts.adjust(subaccount, asset, amount);
    this.move(subaccount, asset, -amount, type);
  }

  /**
   * The carry check of a new order, for an order of nothing on every instrument and side: what the
   * positions and open orders alone need, against what the subaccount holds now.
   */
  private assertStillCarries(subaccount: number): void {
    for (const inst of this.instruments.all())
      for (const direction of ['buy', 'sell'] as const)
        this.margin.assertCanCarry({ inst, subaccount, direction, priceTicks: inst.midTicks, lots: 0 });
  }

  /**
   * The chain's part of a deposit (the control plane's `deposit`): credit the subaccount (the wallet's
   * first when none is named); a wallet the sandbox has not seen gets its account by it.
   */
  deposit(wallet: string, asset: string, amount: bigint, subaccount?: number): DepositEntry {
    this.assetOrRefuse(asset);
    if (amount <= 0n) throw invalid(`amount must be above zero (got ${fmt(amount)})`);
    const isNew = !this.accounts.knows(wallet);
    const subs = this.accounts.subaccountsOf(wallet);
    const to = subaccount ?? subs[0]!;
    if (!subs.includes(to)) throw invalid(`subaccount ${to} is not wallet ${wallet}'s (${subs.join(', ')})`);
    this.move(to, asset, amount, 'asset_deposit');
    const op = this.operation();
    const entry: DepositEntry = {
      action_id: op.operation_id,
      amount: fmt(amount),
      asset,
      batch_status: 'Settled',
      batch_uuid: op.batch_uuid,
      fee: '0',
      new_subaccount: isNew,
      operation_id: String(op.operation_id),
      subaccount_id: to,
      timestamp: this.clock.now(),
      tx_hash: op.tx_hash,
      wallet,
    };
    this.keep(this.deposits, { ...entry, wallets: [wallet] });
    return entry;
  }

  /**
   * `transfer_spot` between subaccounts of one wallet; to subaccount 0, a new subaccount is opened for
   * it. Returns the operation and the subaccount credited.
   */
  transfer(wallet: string, from: number, to: number, asset: string, amount: bigint) {
    const own = this.accounts.subaccountsOf(wallet);
    if (to !== 0 && !own.includes(to))
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `to_subaccount_id ${to} is not wallet ${wallet}'s: transfer_spot moves between own subaccounts`,
      );
    if (to === from) throw invalid(`to_subaccount_id ${to} is the subaccount it comes from`);
    this.debit(from, asset, amount, 'transfer');
    const credited = to === 0 ? this.accounts.openSubaccount(wallet) : to;
    this.move(credited, asset, amount, 'transfer');
    const op = this.operation();
    const entry = {
      amount: fmt(amount),
      asset,
      batch_status: 'Settled' as const,
      batch_uuid: op.batch_uuid,
      fee: '0',
      from_subaccount_id: from,
      from_wallet: wallet,
      is_outgoing: true,
      operation_id: String(op.operation_id),
      timestamp: this.clock.now(),
      to_subaccount_id: credited,
      to_wallet: wallet,
      tx_hash: op.tx_hash,
    };
    this.keep(this.transfers, { ...entry, wallets: [wallet] });
    return { op_uuid: op.op_uuid, operation_id: op.operation_id, credited };
  }

  /** `withdraw`: debit the subaccount, paid out to the recipient (the wallet when none is named). */
  withdraw(wallet: string, subaccount: number, asset: string, amount: bigint, recipient: string) {
    const spot = this.assetOrRefuse(asset);
    this.debit(subaccount, asset, amount, 'asset_withdrawal');
    const op = this.operation();
    this.keep(this.withdrawals, {
      amount: fmt(amount),
      asset,
      batch_status: 'Settled',
      batch_uuid: op.batch_uuid,
      erc20_address: spot.address,
      fee: '0',
      operation_id: String(op.operation_id),
      recipient,
      subaccount_id: subaccount,
      timestamp: this.clock.now(),
      tx_hash: op.tx_hash,
      wallet,
      wallets: [wallet],
    });
    return { op_uuid: op.op_uuid, operation_id: op.operation_id };
  }

  /** update_whitelisted_recipients: the list becomes (current ∪ add) \ remove. */
  updateWhitelist(wallet: string, add: string[], remove: string[]) {
    const list = this.whitelists.get(wallet) ?? new Set<string>();
    for (const a of add) list.add(a);
    for (const r of remove) list.delete(r);
    this.whitelists.set(wallet, list);
    this.accounts.shared.put(WHITELISTS, wallet, [...list]);
    const op = this.operation();
    return { op_uuid: op.op_uuid, operation_id: op.operation_id, whitelisted_recipients: [...list] };
  }

  /** The wallet's whitelisted recipients (private/get_account). */
  whitelistOf(wallet: string): string[] {
    return [...(this.whitelists.get(wallet) ?? [])];
  }

  /**
   * Every kept deposit, withdrawal and transfer, oldest first, with what the on-chain reads name it by
   * (public/get_transaction, public/get_onchain_action_history).
   */
  booked(): {
    kind: 'deposit' | 'withdrawal' | 'transfer';
    entry: Kept<{ batch_uuid: string; tx_hash?: string | null; timestamp: number }>;
  }[] {
    return [
      ...this.deposits.map((entry) => ({ kind: 'deposit' as const, entry })),
      ...this.withdrawals.map((entry) => ({ kind: 'withdrawal' as const, entry })),
      ...this.transfers.map((entry) => ({ kind: 'transfer' as const, entry })),
    ].sort((a, b) => a.entry.timestamp - b.entry.timestamp);
  }

  whitelisted(wallet: string, recipient: string): boolean {
    return this.whitelists.get(wallet)?.has(recipient) ?? false;
  }

  /**
   * transfer_spot_external: to a subaccount of a whitelisted wallet, or to subaccount 0, which opens a
   * new one for the recipient. Returns the operation; both wallets' histories show it.
   */
  transferExternal(wallet: string, from: number, recipient: string, to: number, asset: string, amount: bigint) {
    if (!this.whitelisted(wallet, recipient))
      throw invalid(`recipient_address ${recipient} is not on wallet ${wallet}'s whitelisted recipients`);
    if (to !== 0 && this.accounts.walletOf(to) !== recipient)
      throw invalid(`to_subaccount_id ${to} is not wallet ${recipient}'s`);
    this.debit(from, asset, amount, 'transfer');
    if (to === 0) to = this.accounts.openSubaccount(recipient);
    this.move(to, asset, amount, 'transfer');
    const op = this.operation();
    this.keep(this.transfers, {
      amount: fmt(amount),
      asset,
      batch_status: 'Settled' as const,
      batch_uuid: op.batch_uuid,
      fee: '0',
      from_subaccount_id: from,
      from_wallet: wallet,
      is_outgoing: true,
      operation_id: String(op.operation_id),
      timestamp: this.clock.now(),
      to_subaccount_id: to,
      to_wallet: recipient,
      tx_hash: op.tx_hash,
      wallets: [wallet, recipient],
    });
    return { op_uuid: op.op_uuid, operation_id: op.operation_id };
  }

  private keep<T>(list: T[], entry: T): void {
    list.push(entry);
    if (list.length > KEPT) list.shift();
  }

  /** A history's entries of the wallet (of one of its subaccounts, when named) within [from, to], newest first. */
  private history<T extends { timestamp: number; wallets: string[] }>(
    list: T[],
    wallet: string,
    touches: (e: T) => boolean,
    from?: number | null,
    to?: number | null,
  ): Omit<T, 'wallets'>[] {
    return list
      .filter((e) => e.wallets.includes(wallet) && touches(e))
      .filter((e) => (from == null || e.timestamp >= from) && (to == null || e.timestamp <= to))
      .reverse()
      .map(({ wallets: _w, ...rest }) => rest);
  }

  transfersOf(wallet: string, subaccount: number | null, from?: number | null, to?: number | null) {
    return this.history(
      this.transfers,
      wallet,
      (e) => subaccount === null || e.from_subaccount_id === subaccount || e.to_subaccount_id === subaccount,
      from,
      to,
    ).map((e) => ({
      ...e,
      is_outgoing: subaccount === null ? e.from_wallet === wallet : e.from_subaccount_id === subaccount,
    }));
  }

  withdrawalsOf(wallet: string, subaccount: number | null, from?: number | null, to?: number | null) {
    return this.history(
      this.withdrawals,
      wallet,
      (e) => subaccount === null || e.subaccount_id === subaccount,
      from,
      to,
    );
  }

  depositsOf(wallet: string, subaccount: number | null, from?: number | null, to?: number | null) {
    return this.history(this.deposits, wallet, (e) => subaccount === null || e.subaccount_id === subaccount, from, to);
  }
}
