/**
 * A seeded set of vaults (issue 31, item 6): each a subaccount of its own, traded by a simulated
 * curator, holding USDC; shares are accounted per wallet. A shareholder's deposit or withdrawal is a
 * signed request that stays live until the curator settles it: the simulated curator mints or burns at
 * the share price once SETTLE_AFTER_MS has passed on the movable clock (every vault read and request
 * settles what is due first). A deposit moves its USDC from the depositor's subaccount into the vault's
 * when minted, and is refused when the subaccount does not hold it; a withdrawal burns no more shares
 * than the wallet holds, not within the vault's cooldown after its last deposit, and pays the shares'
 * value into the requesting subaccount.
 */
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { actionHash, actionOf, canonicalNonce, defaultActionLayout, type ActionFields } from '@exchange-api/auth';
import type {
  PublicVaultAction,
  Vault,
  VaultActionResult,
  VaultPerformancePointResponse,
  VaultRequest,
  VaultRequestId,
} from '@exchange-api/types';
import { derivedSubaccounts, type Accounts } from '../accounts';
import type { Clock } from '../clock';
import { div, fixed, fmt, mul, ONE, parseFixed } from '../fixed';
import { RpcFailure } from '../rpc';
import { cashAssetAddress } from './market-data';
import type { Portfolios } from './portfolios';

/** How long the simulated curator takes to settle a request. */
export const SETTLE_AFTER_MS = 60_000;

/** The seeded vaults: name, description, starting NAV (USDC, also the curator's shares at 1), fees and cooldown. */
const SEEDED = [
  {
    name: 'Sandbox Basis Vault',
    description: 'Long spot, short perp: the funding carry.',
    nav: '250000',
    cooldown: 3600,
  },
  { name: 'Sandbox Covered Calls', description: 'Sells calls against ETH held.', nav: '100000', cooldown: 86400 },
] as const;

type Kind = 'deposit' | 'withdraw';
interface Pending {
  id: VaultRequestId;
  kind: Kind;
  subaccount: number;
  amount: bigint;
  at: number;
  signed: VaultRequest['signed_action'];
  hash: string;
}
interface VaultState {
  subaccount: number;
  curator: string;
  name: string;
  description: string;
  cooldownSec: number;
  createdAt: number;
  shares: Map<string, bigint>;
  lastDeposit: Map<string, number>;
  events: PublicVaultAction[];
}

type Signed = ActionFields & { signer: string; signature: string; subaccount_id: number; vault_subaccount_id: number };

const invalid = (what: string) => RpcFailure.of('RPC_INVALID_PARAMS', what);
const bytes = (hex: string) => [...Buffer.from(hex.replace(/^0x/, ''), 'hex')];

/** The vaults, their shares and the requests on them. */
export class Vaults {
  private readonly vaults = new Map<number, VaultState>();
  private readonly live: Pending[] = [];
  /** Every request's record as the wallet's history shows it, newest last. */
  private readonly actions: VaultActionResult[] = [];
  private operations = 0;

  constructor(
    private readonly accounts: Accounts,
    private readonly portfolios: Portfolios,
    private readonly clock: Clock,
  ) {
    const now = clock.now();
    SEEDED.forEach((v, i) => {
      const curator = getAddress('0x' + keccak256(toUtf8Bytes(`exchange-api sandbox vault curator ${i}`)).slice(-40));
      const subaccount = derivedSubaccounts(curator)[0]!;
      accounts.register(curator, [subaccount], { USDC: v.nav });
      const state: VaultState = {
        subaccount,
        curator,
        name: v.name,
        description: v.description,
        cooldownSec: v.cooldown,
        createdAt: now,
        shares: new Map([[curator, fixed(v.nav)]]),
        lastDeposit: new Map(),
        events: [],
      };
      this.vaults.set(subaccount, state);
      this.event(state, 'create', curator, fixed(v.nav), now);
    });
  }

  /** A vault by its subaccount, or -32602 naming it and the vaults there are. */
  private vault(id: unknown): VaultState {
    const v = typeof id === 'number' ? this.vaults.get(id) : undefined;
    if (!v)
      throw invalid(
        `no vault with subaccount_id ${String(id).slice(0, 40)} (vaults: ${[...this.vaults.keys()].join(', ')})`,
      );
    return v;
  }

  private totalShares(v: VaultState): bigint {
    let t = 0n;
    for (const s of v.shares.values()) t += s;
    return t;
  }

  private nav(v: VaultState): bigint {
    return fixed(this.portfolios.of(v.subaccount).subaccount_value);
  }

  private sharePrice(v: VaultState): bigint {
    const total = this.totalShares(v);
    return total === 0n ? ONE : div(this.nav(v), total);
  }

  private event(v: VaultState, type: string, holder: string, delta: bigint, at: number): void {
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
      whitelist_only: false,
      nav_usd: fmt(this.nav(v)),
      simulated_share_price_usd: fmt(this.sharePrice(v)),
      benchmark_price: null,
      nav_benchmark: null,
      mtm_cap: null,
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
          management_fee_bps: 0,
          performance_fee_bps: 0,
          max_slippage_bps: 100,
        },
      },
    };
  }

  /** Settle every request whose time has come, oldest first. */
  settleDue(): void {
    const now = this.clock.now();
    while (this.live.length > 0 && this.live[0]!.at + SETTLE_AFTER_MS <= now) this.settle(this.live.shift()!, now);
  }

  private settle(r: Pending, now: number): void {
    const v = this.vaults.get(r.id.vault_subaccount_id)!;
    const price = this.sharePrice(v);
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

  private record_(
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

  /** private/request_vault_deposit and private/request_vault_withdraw (their signatures already verified). */
  request(
    method: string,
    kind: Kind,
    wallet: string,
    p: Signed & { amount?: unknown; shares_to_burn?: unknown; deposit_spot_asset?: string },
  ) {
    this.settleDue();
    const v = this.vault(p.vault_subaccount_id);
    const amount = kind === 'deposit' ? p.amount : p.shares_to_burn;
    const field = kind === 'deposit' ? 'amount' : 'shares_to_burn';
    const value = typeof amount === 'string' || typeof amount === 'number' ? parseFixed(amount) : null;
    if (value === null) throw invalid(`${field} must be a decimal (got ${JSON.stringify(amount)})`);
    if (value <= 0n) throw invalid(`${field} must be above zero (got ${String(amount)})`);
    const now = this.clock.now();
    if (kind === 'deposit') {
      const asset = cashAssetAddress('USDC');
      if (p.deposit_spot_asset?.toLowerCase() !== asset.toLowerCase())
        throw invalid(
          `deposit_spot_asset ${p.deposit_spot_asset} is not vault ${v.subaccount}'s deposit asset ${asset} (USDC)`,
        );
      const has = this.accounts.balance(p.subaccount_id, 'USDC');
      if (has < value) throw invalid(`subaccount ${p.subaccount_id} holds ${fmt(has)} USDC, less than ${fmt(value)}`);
    } else {
      const held = v.shares.get(wallet) ?? 0n;
      if (value > held)
        throw invalid(`shares_to_burn ${fmt(value)} is more than the ${fmt(held)} shares ${wallet} holds`);
      const last = v.lastDeposit.get(wallet);
      if (last !== undefined && now < last + v.cooldownSec * 1000)
        throw invalid(
          `vault ${v.subaccount}'s cooldown of ${v.cooldownSec} s after the last deposit ` +
            `ends at ${last + v.cooldownSec * 1000}`,
        );
    }
    if (kind === 'deposit') v.lastDeposit.set(wallet, now);
    const action = actionOf(method, p as Signed & Record<string, unknown>, {
      owner: wallet,
      signer: p.signer,
      deployment: defaultActionLayout.deployment,
    });
    const id: VaultRequestId = { wallet, vault_subaccount_id: v.subaccount, vault_nonce: canonicalNonce(p.nonce) };
    const pending: Pending = {
      id,
      kind,
      subaccount: p.subaccount_id,
      amount: value,
      at: now,
      hash: actionHash(action),
      signed: {
        action: {
          subaccount_id: p.subaccount_id,
          nonce: Number(action.nonce),
          module: action.module,
          data: bytes(action.data),
          expiry: Number(action.expiry),
          owner: action.owner,
          signer: action.signer,
        },
        signature: bytes(p.signature),
      },
    };
    this.live.push(pending);
    const held = v.shares.get(wallet) ?? 0n;
    this.record_(pending, 'requested', now, {
      before: held,
      after: held,
      shares: 0n,
      amount: kind === 'deposit' ? value : 0n,
      price: this.sharePrice(v),
      error: '',
    });
    return { request_id: id };
  }

  /** private/cancel_all_vault_requests: the subaccount's live requests on the vault. */
  cancelAll(wallet: string, subaccount: number, vaultId: number) {
    this.settleDue();
    const v = this.vault(vaultId);
    const now = this.clock.now();
    const gone = this.live.filter((r) => r.subaccount === subaccount && r.id.vault_subaccount_id === v.subaccount);
    for (const r of gone) {
      this.live.splice(this.live.indexOf(r), 1);
      const held = v.shares.get(wallet) ?? 0n;
      this.record_(r, 'cancelled', now, {
        before: held,
        after: held,
        shares: 0n,
        amount: 0n,
        price: this.sharePrice(v),
        error: '',
      });
    }
    const operation = ++this.operations;
    return {
      cancelled_request_ids: gone.map((r) => r.id),
      operation_id: operation,
      op_uuid: keccak256(toUtf8Bytes(`vault operation ${operation}`)).slice(2, 34),
    };
  }

  /** public/get_vaults. */
  list(): Vault[] {
    this.settleDue();
    return [...this.vaults.values()].map((v) => this.record(v));
  }

  /** public/get_vault. */
  one(id: unknown): Vault {
    this.settleDue();
    return this.record(this.vault(id));
  }

  /** public/get_vault_action_history: the vault's events, newest first, of a type when asked. */
  events(id: unknown, type?: string | null): PublicVaultAction[] {
    this.settleDue();
    return [...this.vault(id).events].reverse().filter((e) => type == null || e.event_type === type);
  }

  /**
   * public/get_vault_performance_history: past figures are not kept, so one point, now, when the window
   * (from, to: milliseconds) holds it and the limit allows one; any resolution buckets it alike.
   */
  performance(id: unknown, from?: number | null, to?: number | null, limit?: number | null) {
    this.settleDue();
    const v = this.vault(id);
    const now = this.clock.now();
    const point = (ts: number): VaultPerformancePointResponse => ({
      ts,
      nav: fmt(this.nav(v)),
      share_price: fmt(this.sharePrice(v)),
      total_shares: fmt(this.totalShares(v)),
      curator_shares: fmt(v.shares.get(v.curator) ?? 0n),
      global_hwm: fmt(this.sharePrice(v)),
      benchmark_price: null,
      nav_benchmark: null,
    });
    if ((from != null && now < from) || (to != null && now > to) || limit === 0) return [];
    return [point(now)];
  }

  /** The vaults and the shares a wallet holds (more than none). */
  sharesOf(wallet: string): { shares: string; vault: Vault }[] {
    this.settleDue();
    return [...this.vaults.values()]
      .filter((v) => (v.shares.get(wallet) ?? 0n) > 0n)
      .map((v) => ({ shares: fmt(v.shares.get(wallet)!), vault: this.record(v) }));
  }

  /** The vaults a wallet curates. */
  curatedBy(wallet: string): number[] {
    return [...this.vaults.values()]
      .filter((v) => v.curator.toLowerCase() === wallet.toLowerCase())
      .map((v) => v.subaccount);
  }

  /** Live requests as the reads show them: a wallet's, or a vault's of one kind. */
  liveOf(
    filter: { wallet?: string; vault?: number; kind?: Kind },
    limit?: number,
  ): { requests: VaultRequest[]; total: number } {
    this.settleDue();
    if (filter.vault !== undefined) this.vault(filter.vault);
    const all = this.live.filter(
      (r) =>
        (filter.wallet === undefined || r.id.wallet === filter.wallet) &&
        (filter.vault === undefined || r.id.vault_subaccount_id === filter.vault) &&
        (filter.kind === undefined || r.kind === filter.kind),
    );
    return {
      total: all.length,
      requests: all.slice(0, limit ?? all.length).map((r) => ({
        id: r.id,
        wallet: r.id.wallet,
        subaccount_id: r.subaccount,
        creation_timestamp_ms: r.at,
        user_action_hash: r.hash,
        signed_action: r.signed,
      })),
    };
  }

  /** private/get_vault_request_history: a wallet's requests in every state, newest first. */
  historyOf(wallet: string): VaultActionResult[] {
    this.settleDue();
    return this.actions.filter((a) => a.wallet === wallet).reverse();
  }
}
