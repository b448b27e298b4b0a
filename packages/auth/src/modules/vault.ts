/**
 * The vault module's data (derive-ts codecs/vault.ts): every vault action is signed under the one vault
 * module, its first word a kind, the only thing telling one action from another. Shareholders queue
 * deposits (kind 1) and withdrawals (2) and cancel them (3); a curator creates a vault (0) and settles
 * queued intents, minting (4) or burning (5) shares at a price committed to the intent's hash. Amounts,
 * fees and prices at 10^18; fee rates (bps) and cooldown are plain integers.
 */
import { AbiCoder, ZeroAddress } from 'ethers';
import { address, bytes32, positiveE18, unsignedE18, whole, type Params } from '../action-data';

/** The kind word of each vault action. */
export const VAULT_ACTION_KIND = {
  create: 0,
  deposit: 1,
  withdraw: 2,
  cancel: 3,
  mintShares: 4,
  burnShares: 5,
} as const;

const abi = AbiCoder.defaultAbiCoder();

/** private/request_vault_deposit: kind, vaultSubaccountId, depositSpotAsset, amount. */
export function vaultDepositData(params: Params): string {
  return abi.encode(
    ['uint256', 'uint256', 'address', 'uint256'],
    [
      VAULT_ACTION_KIND.deposit,
      whole(params.vault_subaccount_id, 'vault_subaccount_id'),
      address(params.deposit_spot_asset, 'deposit_spot_asset'),
      positiveE18(params.amount, 'amount'),
    ],
  );
}

/** private/request_vault_withdraw: kind, vaultSubaccountId, sharesToBurn. */
export function vaultWithdrawData(params: Params): string {
  return abi.encode(
    ['uint256', 'uint256', 'uint256'],
    [
      VAULT_ACTION_KIND.withdraw,
      whole(params.vault_subaccount_id, 'vault_subaccount_id'),
      positiveE18(params.shares_to_burn, 'shares_to_burn'),
    ],
  );
}

/** private/cancel_all_vault_requests: kind, vaultSubaccountId (every pending intent of the signer for the vault). */
export function vaultCancelData(params: Params): string {
  return abi.encode(
    ['uint256', 'uint256'],
    [VAULT_ACTION_KIND.cancel, whole(params.vault_subaccount_id, 'vault_subaccount_id')],
  );
}

/**
 * private/create_vault: kind, managerId, depositSpotAsset, initialDeposit, managementFeeBps,
 * performanceFeeBps, maxSlippageBps, cooldownSec, maxFeeUsd, initialSharePriceUsd, benchmarkAsset (the
 * zero address when none) and hasBenchmark (whether benchmark_asset is given).
 */
export function vaultCreateData(params: Params): string {
  const benchmark = params.benchmark_asset ?? null;
  return abi.encode(
    // prettier-ignore
    ['uint256', 'uint256', 'address', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256',
      'address', 'bool'],
    [
      VAULT_ACTION_KIND.create,
      whole(params.manager_id, 'manager_id'),
      address(params.deposit_spot_asset, 'deposit_spot_asset'),
      unsignedE18(params.initial_deposit, 'initial_deposit'),
      whole(params.management_fee_bps, 'management_fee_bps'),
      whole(params.performance_fee_bps, 'performance_fee_bps'),
      whole(params.max_slippage_bps, 'max_slippage_bps'),
      whole(params.cooldown_sec, 'cooldown_sec'),
      unsignedE18(params.max_fee_usd, 'max_fee_usd'),
      unsignedE18(params.initial_share_price_usd, 'initial_share_price_usd'),
      benchmark === null ? ZeroAddress : address(benchmark, 'benchmark_asset'),
      benchmark !== null,
    ],
  );
}

/** private/mint_vault_shares: kind, sharePrice, depositHash (keccak256 of the deposit intent's data). */
export function vaultMintSharesData(params: Params): string {
  return abi.encode(
    ['uint256', 'uint256', 'bytes32'],
    [
      VAULT_ACTION_KIND.mintShares,
      unsignedE18(params.share_price, 'share_price'),
      bytes32(params.deposit_hash, 'deposit_hash'),
    ],
  );
}

/** private/burn_vault_shares: kind, sharePrice, withdrawHash (keccak256 of the withdrawal intent's data). */
export function vaultBurnSharesData(params: Params): string {
  return abi.encode(
    ['uint256', 'uint256', 'bytes32'],
    [
      VAULT_ACTION_KIND.burnShares,
      unsignedE18(params.share_price, 'share_price'),
      bytes32(params.withdraw_hash, 'withdraw_hash'),
    ],
  );
}
