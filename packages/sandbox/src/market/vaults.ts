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
  /** keccak256 of the signed action's data: the deposit_hash or withdraw_hash its settlement names. */
  dataHash: string;
}
interface VaultState {
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
        simulated: true,
        whitelistOnly: false,
        mtmCap: null,
        fees: { management: 0, performance: 0, slippage: 100 },
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
    // The error table has no "not found" for records other than orders: refused as access to no vault.
    if (!v)
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
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

  private settle(r: Pending, now: number, price: bigint): void {
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
    if (kind === 'deposit' && v.whitelistOnly && wallet !== v.curator)
      throw RpcFailure.of('AUTH_ACCESS_DENIED', `vault ${v.subaccount} takes deposits from its whitelist only`);
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
      dataHash: keccak256(action.data),
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
    const v = typeof id === 'number' ? this.vaults.get(id) : undefined;
    return [...(v?.events ?? [])].reverse().filter((e) => type == null || e.event_type === type);
  }

  /**
   * public/get_vault_performance_history: past figures are not kept, so one point, now, when the window
   * (from, to: milliseconds) holds it and the limit allows one; any resolution buckets it alike.
   */
  performance(id: unknown, from?: number | null, to?: number | null, limit?: number | null) {
    this.settleDue();
    const v = typeof id === 'number' ? this.vaults.get(id) : undefined;
    if (!v) return [];
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

  /**
   * Live requests as the reads show them: a wallet's, or a vault's of one kind: all of them to its
   * curator (`reader`), the reader's own to anyone else.
   */
  liveOf(
    filter: { wallet?: string; vault?: number; kind?: Kind; reader?: string },
    limit?: number,
  ): { requests: VaultRequest[]; total: number } {
    this.settleDue();
    if (filter.vault !== undefined && this.vaults.get(filter.vault)?.curator === filter.reader)
      filter = { ...filter, wallet: undefined };
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
  /** private/create_vault (its signature verified): a vault of the signer's, funded from its subaccount. */
  create(wallet: string, p: CreateParams, managers: readonly number[]) {
    const amount = (field: string, v: unknown, positive: boolean) => {
      const x = typeof v === 'string' || typeof v === 'number' ? parseFixed(v) : null;
      if (x === null || x < 0n || (positive && x === 0n))
        throw invalid(`${field} must be a decimal${positive ? ' above zero' : ''} (got ${JSON.stringify(v)})`);
      return x;
    };
    if (p.benchmark_asset != null)
      throw invalid('benchmark_asset: not modelled by the sandbox (a vault without a benchmark only)');
    if (!managers.includes(p.manager_id))
      throw invalid(`manager_id ${p.manager_id} is not a manager (public/get_risk_universes: ${managers.join(', ')})`);
    const usdc = cashAssetAddress('USDC');
    if (p.deposit_spot_asset.toLowerCase() !== usdc.toLowerCase())
      throw invalid(`deposit_spot_asset ${p.deposit_spot_asset}: the sandbox's vaults take USDC (${usdc})`);
    for (const f of ['management_fee_bps', 'performance_fee_bps', 'max_slippage_bps'] as const)
      if (!Number.isInteger(p[f]) || p[f] < 0 || p[f] > 10_000) throw invalid(`${f} must be 0 to 10000 (got ${p[f]})`);
    if (!Number.isInteger(p.cooldown_sec) || p.cooldown_sec < 0)
      throw invalid(`cooldown_sec must be a whole number of seconds (got ${p.cooldown_sec})`);
    const deposit = amount('initial_deposit', p.initial_deposit, true);
    const price = amount('initial_share_price_usd', p.initial_share_price_usd, true);
    amount('max_fee_usd', p.max_fee_usd, false);
    const has = this.accounts.balance(p.subaccount_id, 'USDC');
    if (has < deposit) throw invalid(`subaccount ${p.subaccount_id} holds ${fmt(has)} USDC, less than ${fmt(deposit)}`);
    let id = derivedSubaccounts(wallet).at(-1)! + 1;
    while (this.accounts.balances.has(id)) id++;
    this.accounts.register(wallet, [id], {});
    this.accounts.adjust(p.subaccount_id, 'USDC', -deposit);
    this.accounts.adjust(id, 'USDC', deposit);
    const now = this.clock.now();
    const v: VaultState = {
      subaccount: id,
      curator: wallet,
      name: `Vault ${id}`,
      description: '',
      cooldownSec: p.cooldown_sec,
      simulated: false,
      whitelistOnly: false,
      mtmCap: null,
      fees: { management: p.management_fee_bps, performance: p.performance_fee_bps, slippage: p.max_slippage_bps },
      createdAt: now,
      shares: new Map([[wallet, div(deposit, price)]]),
      lastDeposit: new Map(),
      events: [],
    };
    this.vaults.set(id, v);
    this.event(v, 'create', wallet, div(deposit, price), now);
    return { vault: id, ...this.operation() };
  }

  private operation(): { operation_id: number; op_uuid: string } {
    const n = ++this.operations;
    return { operation_id: n, op_uuid: keccak256(toUtf8Bytes(`vault operation ${n}`)).slice(2, 34) };
  }

  /** The vault a curator acts on, or 14003 when the caller is not its curator. */
  curated(wallet: string, id: unknown): VaultState {
    const v = typeof id === 'number' ? this.vaults.get(id) : undefined;
    if (!v)
      throw RpcFailure.of('AUTH_ACCESS_DENIED', `subaccount ${String(id).slice(0, 40)} is no vault of ${wallet}'s`);
    if (v.curator !== wallet)
      throw RpcFailure.of(
        'AUTH_ACCESS_DENIED',
        `${wallet} is not the curator of vault ${v.subaccount} (${v.curator} is)`,
      );
    return v;
  }

  /** private/update_vault_info: the curator's metadata. */
  update(wallet: string, p: UpdateParams) {
    const v = this.curated(wallet, p.subaccount_id);
    if (p.mtm_cap != null) {
      const cap = typeof p.mtm_cap === 'string' || typeof p.mtm_cap === 'number' ? parseFixed(p.mtm_cap) : null;
      if (cap === null || cap < 0n)
        throw invalid(`mtm_cap must be a decimal of at least 0 (got ${JSON.stringify(p.mtm_cap)})`);
      v.mtmCap = fmt(cap);
    }
    if (p.name != null) v.name = p.name;
    if (p.description != null) v.description = p.description;
    if (p.whitelist_only != null) v.whitelistOnly = p.whitelist_only;
    return { status: 'ok' };
  }

  /**
   * private/mint_vault_shares and private/burn_vault_shares (the curator's signature verified): settle
   * one live request at the curator's price, which must be within the vault's max slippage of the share
   * price, naming the request's data by its keccak256 hash.
   */
  settleBy(wallet: string, kind: Kind, p: SettleParams) {
    const v = this.curated(wallet, p.subaccount_id);
    const field = kind === 'deposit' ? 'deposit_hash' : 'withdraw_hash';
    const r = this.live.find(
      (x) =>
        x.kind === kind &&
        x.id.wallet === p.request_id.wallet &&
        x.id.vault_subaccount_id === v.subaccount &&
        x.id.vault_nonce === String(p.request_id.vault_nonce),
    );
    if (!r) throw invalid(`no live ${kind} request ${JSON.stringify(p.request_id)} on vault ${v.subaccount}`);
    if (String(p[field]).toLowerCase() !== r.dataHash)
      throw invalid(`${field} ${p[field]} is not the request's (${r.dataHash})`);
    const price =
      typeof p.share_price === 'string' || typeof p.share_price === 'number' ? parseFixed(p.share_price) : null;
    if (price === null || price <= 0n)
      throw invalid(`share_price must be a decimal above zero (got ${JSON.stringify(p.share_price)})`);
    const mark = this.sharePrice(v);
    const off = price > mark ? price - mark : mark - price;
    if (off * 10_000n > mark * BigInt(v.fees.slippage))
      throw invalid(`share_price ${fmt(price)} is more than ${v.fees.slippage} bps from the share price ${fmt(mark)}`);
    this.live.splice(this.live.indexOf(r), 1);
    this.settle(r, this.clock.now(), price);
    return this.operation();
  }

  /** private/reject_deposit_request: the curator drops a live deposit request; nothing moves. */
  rejectDeposit(wallet: string, p: { request_id: VaultRequestId; reason?: string | null }) {
    const v = this.curated(wallet, p.request_id.vault_subaccount_id);
    const r = this.live.find(
      (x) =>
        x.kind === 'deposit' &&
        x.id.wallet === p.request_id.wallet &&
        x.id.vault_subaccount_id === v.subaccount &&
        x.id.vault_nonce === String(p.request_id.vault_nonce),
    );
    if (!r) throw invalid(`no live deposit request ${JSON.stringify(p.request_id)} on vault ${v.subaccount}`);
    this.live.splice(this.live.indexOf(r), 1);
    const held = v.shares.get(r.id.wallet) ?? 0n;
    const x = { before: held, after: held, shares: 0n, amount: 0n, price: this.sharePrice(v), error: p.reason ?? '' };
    this.record_(r, 'rejected', this.clock.now(), x);
    return { request_id: r.id };
  }

  /**
   * private/force_burn: the curator exits a holder at the share price, paying the shares' value into
   * the holder's first subaccount.
   */
  forceBurn(wallet: string, p: { subaccount_id: number; holder: string }) {
    const v = this.curated(wallet, p.subaccount_id);
    const holder = /^0x[0-9a-fA-F]{40}$/.test(p.holder) ? getAddress(p.holder) : null;
    const held = holder ? (v.shares.get(holder) ?? 0n) : 0n;
    if (!holder || held === 0n) throw invalid(`${p.holder} holds no shares of vault ${v.subaccount}`);
    if (holder === v.curator) throw invalid(`the curator ${holder} cannot force-burn its own shares`);
    const price = this.sharePrice(v);
    const value = mul(held, price);
    const to = this.accounts.subaccountsOf(holder)[0]!;
    this.accounts.adjust(v.subaccount, 'USDC', -value);
    this.accounts.adjust(to, 'USDC', value);
    v.shares.set(holder, 0n);
    const now = this.clock.now();
    this.event(v, 'force_burn', holder, -held, now);
    const op = this.operation();
    this.actions.push({
      wallet: holder,
      vault_subaccount_id: v.subaccount,
      vault_nonce: '0',
      event_type: 'force_burn',
      status: 'burned',
      creation_timestamp_ms: now,
      event_ts: now,
      amount: fmt(value),
      shares_requested: fmt(held),
      shares_delta: fmt(-held),
      before_shares: fmt(held),
      after_shares: '0',
      share_price: fmt(price),
      entry_price: '0',
      exit_price: fmt(price),
      error_reason: '',
      operation_id: op.operation_id,
      operation_uuid: op.op_uuid,
      user_action_hash: '',
    });
    return op;
  }
}

/** The params of private/create_vault the model reads. */
export interface CreateParams {
  subaccount_id: number;
  manager_id: number;
  deposit_spot_asset: string;
  initial_deposit: unknown;
  initial_share_price_usd: unknown;
  max_fee_usd: unknown;
  management_fee_bps: number;
  performance_fee_bps: number;
  max_slippage_bps: number;
  cooldown_sec: number;
  benchmark_asset?: string | null;
}

/** The params of private/update_vault_info. */
export interface UpdateParams {
  subaccount_id: number;
  name?: string | null;
  description?: string | null;
  whitelist_only?: boolean | null;
  mtm_cap?: unknown;
}

/** The params of mint_vault_shares and burn_vault_shares. */
export interface SettleParams {
  subaccount_id: number;
  request_id: VaultRequestId;
  share_price: unknown;
  deposit_hash?: string;
  withdraw_hash?: string;
}
