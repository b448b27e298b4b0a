/**
 * The vaults' ledger: each vault's state (a subaccount of its own holding USDC, shares per wallet, its
 * public events), the live requests and every request's record, and settlement: minting or burning a
 * request at a share price, by the simulated curator once SETTLE_AFTER_MS has passed on the movable
 * clock (the seeded vaults) or by the vault's own curator (vault-curation.ts). A deposit moves its USDC
 * from the depositor's subaccount into the vault's when minted (failing when the subaccount no longer
 * holds it); a withdrawal pays the shares' value into the requesting subaccount.
 */
import { keccak256, toUtf8Bytes } from 'ethers';
import type { ActionFields } from '@exchange-api/auth';
import type { PublicVaultAction, Vault, VaultActionResult, VaultRequest, VaultRequestId } from '@exchange-api/types';
import type { Accounts } from '../accounts';
import type { Clock } from '../clock';
import { div, fixed, fmt, mul, ONE } from '../fixed';
import { RpcFailure } from '../rpc';
import { cashAssetAddress } from './market-data';
import type { Portfolios } from './portfolios';

/** How long the simulated curator takes to settle a request. */
export const SETTLE_AFTER_MS = 60_000;

export type Kind = 'deposit' | 'withdraw';
export interface Pending {
  id: VaultRequestId;
  kind: Kind;
  subaccount: number;
  amount: bigint;
  at: number;
  signed: VaultRequest['signed_action'];
  hash: string;
  /** keccak256 of the signed action's data: the deposit_hash or withdraw_hash its settlement names. */
  dataHash: string;
}
export interface VaultState {
  subaccount: number;
  curator: string;
  name: string;
  description: string;
  cooldownSec: number;
  /** Settled by the sandbox's simulated curator (the seeded vaults), else by its curator's own calls. */
  simulated: boolean;
  whitelistOnly: boolean;
  mtmCap: string | null;
  fees: { management: number; performance: number; slippage: number };
  createdAt: number;
  shares: Map<string, bigint>;
  lastDeposit: Map<string, number>;
  events: PublicVaultAction[];
}

export type Signed = ActionFields & {
  signer: string;
  signature: string;
  subaccount_id: number;
  vault_subaccount_id: number;
};

export const invalid = (what: string) => RpcFailure.of('RPC_INVALID_PARAMS', what);
export const bytes = (hex: string) => [...Buffer.from(hex.replace(/^0x/, ''), 'hex')];

/** The vaults' state, share arithmetic, records and settlement; the curator's and shareholders' calls extend it. */
export class VaultLedger {
  protected readonly vaults = new Map<number, VaultState>();
  protected readonly live: Pending[] = [];
  /** Every request's record as the wallet's history shows it, newest last. */
  protected readonly actions: VaultActionResult[] = [];
  protected operations = 0;

  constructor(
    protected readonly accounts: Accounts,
    protected readonly portfolios: Portfolios,
    protected readonly clock: Clock,
  ) {}

  /** A vault by its subaccount, or -32602 naming it and the vaults there are. */
  protected vault(id: unknown): VaultState {
    const v = typeof id === 'number' ? this.vaults.get(id) : undefined;
    // The error table has no "not found" for records other than orders: refused as access to no vault.
    if (!v)
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `no vault with subaccount_id ${String(id).slice(0, 40)} (vaults: ${[...this.vaults.keys()].join(', ')})`,
      );
    return v;
  }

  protected totalShares(v: VaultState): bigint {
    let t = 0n;
    for (const s of v.shares.values()) t += s;
    return t;
  }

  protected nav(v: VaultState): bigint {
    return fixed(this.portfolios.of(v.subaccount).subaccount_value);
  }

  protected sharePrice(v: VaultState): bigint {
    const total = this.totalShares(v);
    return total === 0n ? ONE : div(this.nav(v), total);
  }

  protected event(v: VaultState, type: string, holder: string, delta: bigint, at: number): void {
    const price = this.sharePrice(v);
    v.events.push({
      event_type: type,
      event_ts: at,
      holder,
      subaccount_id: v.subaccount,
      shares_delta: fmt(delta),
      share_price: fmt(price),
      nav: fmt(this.nav(v)),
      total_shares: fmt(this.totalShares(v)),
      curator_shares_minted: type === 'create' ? fmt(delta) : '0',
      management_shares_minted: '0',
      performance_shares_minted: '0',
      protocol_shares_minted: '0',
      old_high_water_mark: fmt(price),
      new_high_water_mark: fmt(price),
      operation_uuid: keccak256(toUtf8Bytes(`vault ${v.subaccount} event ${v.events.length}`)).slice(2, 34),
      status: 'settled',
    });
  }

  /** A vault as the reads show it. */
  record(v: VaultState): Vault {
    return {
      name: v.name,
      description: v.description,
      curator: v.curator,
      curator_shares: fmt(v.shares.get(v.curator) ?? 0n),
      whitelist_only: v.whitelistOnly,
      nav_usd: fmt(this.nav(v)),
      simulated_share_price_usd: fmt(this.sharePrice(v)),
      benchmark_price: null,
      nav_benchmark: null,
      mtm_cap: v.mtmCap,
      protocol: {
        subaccount_id: v.subaccount,
        closed: false,
        total_shares: fmt(this.totalShares(v)),
        global_hwm: fmt(this.sharePrice(v)),
        last_fee_settled_at_sec: Math.floor(v.createdAt / 1000),
        protocol_fee_share_bps: 0,
        config: {
          deposit_spot_asset: cashAssetAddress('USDC'),
          benchmark_asset: null,
          cooldown_sec: v.cooldownSec,
          management_fee_bps: v.fees.management,
          performance_fee_bps: v.fees.performance,
          max_slippage_bps: v.fees.slippage,
        },
      },
    };
  }

  /** Settle every request whose time has come, oldest first. */
  settleDue(): void {
    const now = this.clock.now();
    const due = this.live.filter(
      (r) => this.vaults.get(r.id.vault_subaccount_id)!.simulated && r.at + SETTLE_AFTER_MS <= now,
    );
    for (const r of due) {
      this.live.splice(this.live.indexOf(r), 1);
      this.settle(r, now, this.sharePrice(this.vaults.get(r.id.vault_subaccount_id)!));
    }
  }

  protected settle(r: Pending, now: number, price: bigint): void {
    const v = this.vaults.get(r.id.vault_subaccount_id)!;
    const held = v.shares.get(r.id.wallet) ?? 0n;
    let shares: bigint;
    let amount: bigint;
    let error = '';
    if (r.kind === 'deposit') {
      amount = r.amount;
      shares = div(amount, price);
      if (this.accounts.balance(r.subaccount, 'USDC') < amount) {
        error = `subaccount ${r.subaccount} no longer holds ${fmt(amount)} USDC`;
        shares = 0n;
      } else {
        this.accounts.adjust(r.subaccount, 'USDC', -amount);
        this.accounts.adjust(v.subaccount, 'USDC', amount);
        v.shares.set(r.id.wallet, held + shares);
      }
    } else {
      shares = r.amount > held ? held : r.amount;
      amount = mul(shares, price);
      this.accounts.adjust(v.subaccount, 'USDC', -amount);
      this.accounts.adjust(r.subaccount, 'USDC', amount);
      v.shares.set(r.id.wallet, held - shares);
    }
    this.record_(r, error ? 'failed' : r.kind === 'deposit' ? 'minted' : 'burned', now, {
      before: held,
      after: v.shares.get(r.id.wallet) ?? 0n,
      shares,
      amount,
      price,
      error,
    });
    if (!error)
      this.event(v, r.kind === 'deposit' ? 'mint' : 'burn', r.id.wallet, r.kind === 'deposit' ? shares : -shares, now);
  }

  protected record_(
    r: Pending,
    status: string,
    at: number,
    x: { before: bigint; after: bigint; shares: bigint; amount: bigint; price: bigint; error: string },
  ): void {
    this.actions.push({
      wallet: r.id.wallet,
      vault_subaccount_id: r.id.vault_subaccount_id,
      vault_nonce: r.id.vault_nonce,
      event_type: r.kind,
      status,
      creation_timestamp_ms: r.at,
      event_ts: at,
      amount: fmt(x.amount),
      shares_requested: r.kind === 'withdraw' ? fmt(r.amount) : '0',
      shares_delta: fmt(r.kind === 'deposit' ? x.shares : -x.shares),
      before_shares: fmt(x.before),
      after_shares: fmt(x.after),
      share_price: fmt(x.price),
      entry_price: r.kind === 'deposit' ? fmt(x.price) : '0',
      exit_price: r.kind === 'withdraw' ? fmt(x.price) : '0',
      error_reason: x.error,
      operation_id: ++this.operations,
      operation_uuid: keccak256(toUtf8Bytes(`vault operation ${this.operations}`)).slice(2, 34),
      user_action_hash: r.hash,
    });
  }

  protected operation(): { operation_id: number; op_uuid: string } {
    const n = ++this.operations;
    return { operation_id: n, op_uuid: keccak256(toUtf8Bytes(`vault operation ${n}`)).slice(2, 34) };
  }
}
