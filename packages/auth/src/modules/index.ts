/**
 * Which data each signed method's Action carries: the spec says which module and layout a method signs
 * (x-action-module, x-action-data in the generated method table); this file holds each layout's encoder.
 * A kind is one data layout; a module may have several (rfq: quote and execution; vault: six).
 */
import { methodTable } from '@exchange-api/types';
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
 * Each layout of the spec's x-action-signature.modules, by module and (where a module has several) the
 * layout's name there: what a method's x-action-module and x-action-data select.
 */
const kindOfLayout: Readonly<Record<string, ActionKindName>> = {
  trade: 'trade',
  'rfq/quote': 'rfqQuote',
  'rfq/execute': 'rfqExecute',
  transfer: 'transfer',
  externalTransfer: 'externalTransfer',
  withdrawal: 'withdrawal',
  setSessionKey: 'setSessionKey',
  whitelistedRecipient: 'whitelistedRecipient',
  'vault/deposit': 'vaultDeposit',
  'vault/withdraw': 'vaultWithdraw',
  'vault/cancel': 'vaultCancel',
  'vault/create': 'vaultCreate',
  'vault/mintShares': 'vaultMintShares',
  'vault/burnShares': 'vaultBurnShares',
};

/** The layout a method signs, from its module and layouts; several layouts are several Actions, signed apart. */
function kindOfMethod(module: string, layouts: readonly string[]): ActionKindName | 'positionTransfer' | undefined {
  if (layouts.length > 1) return 'positionTransfer';
  return kindOfLayout[layouts.length === 1 ? `${module}/${layouts[0]}` : module];
}

/**
 * The signed methods and their layouts, as the spec's x-action-module and x-action-data say (the
 * generated method table). private/transfer_positions signs two Actions, its maker_params as a quote and
 * its taker_params as their execution (signTransferPositions).
 */
export const methodKinds: Readonly<Record<string, ActionKindName | 'positionTransfer'>> = Object.fromEntries(
  methodTable.flatMap((m) => {
    const kind = m.actionModule === null ? undefined : kindOfMethod(m.actionModule, m.actionData);
    return kind === undefined ? [] : [[m.name, kind]];
  }),
);

/** The layout of `method`'s data under `module`, or an ActionDataError naming what is missing. */
export function actionKindOf(method: string, module: string): ActionKind {
  const name = methodKinds[method];
  if (name === 'positionTransfer')
    throw new ActionDataError('method', `${method} signs maker_params and taker_params apart (signTransferPositions)`);
  if (name === undefined)
    throw new ActionDataError('module', `no encoder for the data of ${method} (module ${module})`);
  const found: ActionKind = actionKinds[name];
  if (found.module !== module)
    throw new ActionDataError('module', `${method} signs ${found.module} data, not the data of module ${module}`);
  return found;
}
