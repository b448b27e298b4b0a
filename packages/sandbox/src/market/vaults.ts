/**
 * A seeded set of vaults (issue 31, item 6): each a subaccount of its own, traded by a simulated
 * curator, holding USDC; shares are accounted per wallet. A shareholder's deposit or withdrawal is a
 * signed request that stays live until the curator settles it (vault-ledger.ts; every vault read and
 * request settles what is due first). A deposit is refused when the subaccount does not hold its USDC;
 * a withdrawal burns no more shares than the wallet holds, and not within the vault's cooldown after its
 * last deposit. The reads show vaults, shares, live requests and a wallet's request history.
 */
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { actionHash, actionOf, canonicalNonce, defaultActionLayout } from '@exchange-api/auth';
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
import { fixed, fmt, parseFixed } from '../fixed';
import { RpcFailure } from '../rpc';
import { cashAssetAddress } from './market-data';
import type { Portfolios } from './portfolios';
import { VaultCuration } from './vault-curation';
import { bytes, invalid, type Kind, type Pending, type Signed, type VaultState } from './vault-ledger';

export { SETTLE_AFTER_MS } from './vault-ledger';
export type { CreateParams, SettleParams, UpdateParams } from './vault-curation';

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

/** The vaults, their shares and the requests on them. */
export class Vaults extends VaultCuration {
  constructor(accounts: Accounts, portfolios: Portfolios, clock: Clock) {
    super(accounts, portfolios, clock);
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
    this.refuseUnfit(kind, wallet, v, value, p, now);
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

  /**
   * Refuses a request the vault cannot take: a deposit off its whitelist, in another asset than USDC or
   * more than the subaccount holds; a withdrawal of more shares than held or within the cooldown.
   */
  private refuseUnfit(
    kind: Kind,
    wallet: string,
    v: VaultState,
    value: bigint,
    p: Signed & { deposit_spot_asset?: string },
    now: number,
  ): void {
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
}
