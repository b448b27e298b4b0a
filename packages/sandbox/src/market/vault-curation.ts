/**
 * A wallet's own vault: created from the curator's subaccount (private/create_vault), its metadata edited,
 * and its live requests settled by the curator (mint or burn at a price within the vault's slippage of
 * the share price, naming the request's data by hash), a live deposit rejected, a holder force-burned.
 * The seeded vaults' curators are simulated (vault-ledger.ts settles them on their own).
 */
import { getAddress } from 'ethers';
import type { VaultRequestId } from '@exchange-api/types';
import { derivedSubaccounts } from '../accounts';
import { div, fmt, mul, parseFixed } from '../fixed';
import { RpcFailure } from '../rpc';
import { cashAssetAddress } from './market-data';
import { invalid, VaultLedger, type Kind, type VaultState } from './vault-ledger';

/** The curator's calls on a vault of its own. */
export class VaultCuration extends VaultLedger {
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
