/**
 * Which data each signed method's Action carries: the method → kind → module table of the venue's
 * signed requests as derive-ts 3.0.13 sends them (src/api/*.ts, EndpointMap) and ccxt 4.5.84 (orders).
 * A kind is one data layout; a module may have several (rfq: quote and execution; vault: six).
 */
import { ActionDataError, type DataContext, type Params } from '../action-data';
import { externalTransferDataOf } from './external-transfer';
import { rfqExecuteDataOf, rfqQuoteDataOf } from './rfq';
import { sessionKeyData } from './session-key';
import { tradeDataOf } from './trade';
import { transferDataOf } from './transfer';
import {
  vaultBurnSharesData,
  vaultCancelData,
  vaultCreateData,
  vaultDepositData,
  vaultMintSharesData,
  vaultWithdrawData,
} from './vault';
import { whitelistedRecipientsData } from './whitelisted-recipients';
import { withdrawalDataOf } from './withdrawal';

/** One data layout: its module, its encoder from a request's params, and where the Action's subaccountId comes from. */
export interface ActionKind {
  module: string;
  data: (params: Params, ctx: DataContext) => string;
  /** `params`: the request's subaccount_id; `zero`: a wallet-level action, signed for subaccount 0. */
  subaccount: 'params' | 'zero';
}

const kind = (module: string, data: ActionKind['data'], subaccount: ActionKind['subaccount'] = 'params') => ({
  module,
  data,
  subaccount,
});

/** Every data layout, by name. */
export const actionKinds = {
  trade: kind('trade', tradeDataOf),
  rfqQuote: kind('rfq', rfqQuoteDataOf),
  rfqExecute: kind('rfq', rfqExecuteDataOf),
  transfer: kind('transfer', transferDataOf),
  externalTransfer: kind('externalTransfer', externalTransferDataOf),
  withdrawal: kind('withdrawal', withdrawalDataOf),
  setSessionKey: kind('setSessionKey', sessionKeyData, 'zero'),
  whitelistedRecipient: kind('whitelistedRecipient', whitelistedRecipientsData, 'zero'),
  vaultDeposit: kind('vault', vaultDepositData),
  vaultWithdraw: kind('vault', vaultWithdrawData),
  vaultCancel: kind('vault', vaultCancelData),
  vaultCreate: kind('vault', vaultCreateData),
  vaultMintShares: kind('vault', vaultMintSharesData),
  vaultBurnShares: kind('vault', vaultBurnSharesData),
} satisfies Record<string, ActionKind>;

/** A data layout's name. */
export type ActionKindName = keyof typeof actionKinds;

/**
 * The signed methods and their layouts. private/transfer_positions signs two Actions, its maker_params
 * as a quote and its taker_params as their execution (signTransferPositions).
 */
export const methodKinds: Readonly<Record<string, ActionKindName | 'positionTransfer'>> = {
  'private/order': 'trade',
  'private/replace': 'trade',
  'private/order_debug': 'trade',
  'private/order_quote': 'trade',
  'public/order_quote': 'trade',
  'private/send_quote': 'rfqQuote',
  'private/replace_quote': 'rfqQuote',
  'public/send_quote_debug': 'rfqQuote',
  'private/execute_quote': 'rfqExecute',
  'public/execute_quote_debug': 'rfqExecute',
  'private/transfer_positions': 'positionTransfer',
  'private/transfer_spot': 'transfer',
  'private/transfer_spot_external': 'externalTransfer',
  'private/withdraw': 'withdrawal',
  'public/withdraw_debug': 'withdrawal',
  'private/set_session_key': 'setSessionKey',
  'private/update_whitelisted_recipients': 'whitelistedRecipient',
  'private/request_vault_deposit': 'vaultDeposit',
  'private/request_vault_withdraw': 'vaultWithdraw',
  'private/cancel_all_vault_requests': 'vaultCancel',
  'private/create_vault': 'vaultCreate',
  'private/mint_vault_shares': 'vaultMintShares',
  'private/burn_vault_shares': 'vaultBurnShares',
};

/** The layout a module's methods use when the method is not in the table above (a module with one layout). */
const defaultKinds: Readonly<Record<string, ActionKindName>> = {
  trade: 'trade',
  rfq: 'rfqQuote',
  transfer: 'transfer',
  externalTransfer: 'externalTransfer',
  withdrawal: 'withdrawal',
  setSessionKey: 'setSessionKey',
  whitelistedRecipient: 'whitelistedRecipient',
};

/** The module a known signed method's Action is for, or null when this package knows no such method. */
export function knownModuleOf(method: string): string | null {
  const name = methodKinds[method];
  if (name === undefined) return null;
  return name === 'positionTransfer' ? 'rfq' : actionKinds[name].module;
}

/** The layout of `method`'s data under `module`, or an ActionDataError naming what is missing. */
export function actionKindOf(method: string, module: string): ActionKind {
  const name = methodKinds[method] ?? defaultKinds[module];
  if (name === 'positionTransfer')
    throw new ActionDataError('method', `${method} signs maker_params and taker_params apart (signTransferPositions)`);
  if (name === undefined)
    throw new ActionDataError('module', `no encoder for the data of ${method} (module ${module})`);
  const found: ActionKind = actionKinds[name];
  if (found.module !== module)
    throw new ActionDataError('module', `${method} signs ${found.module} data, not the data of module ${module}`);
  return found;
}
