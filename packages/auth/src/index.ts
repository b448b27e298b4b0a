/** Login proofs (EIP-191) and action signatures (EIP-712), shared by the client, the sandbox and the runner. */
export {
  signLogin,
  recoverLoginSigner,
  loginHeaders,
  proofFromSources,
  freshness,
  freshnessWindow,
  normalizeAddress,
  LoginProofError,
  type LoginProof,
} from './login';
export {
  signAction,
  signActionStruct,
  actionOf,
  actionHash,
  actionDigest,
  recoverActionSigner,
  verifyAction,
  newNonce,
  canonicalNonce,
  type Action,
  type ActionFields,
  type ActionContext,
  type VerifyingDeployment,
} from './action';
export {
  defaultActionLayout,
  actionDeployments,
  deploymentsOf,
  domainSeparator,
  moduleOfMethod,
  type ActionLayout,
  type ActionDeployment,
} from './action-layout';
export { toE18, ActionDataError, type ActionInstrument, type DataContext, type DecimalInput } from './action-data';
export { actionKinds, methodKinds, type ActionKind, type ActionKindName } from './modules/index';
export { tradeData, type TradeParams } from './modules/trade';
export { rfqQuoteData, rfqExecuteData, rfqExecuteLegsOf, type QuoteLeg, type RfqParams } from './modules/rfq';
export { transferData } from './modules/transfer';
export { externalTransferData } from './modules/external-transfer';
export { withdrawalData, type WithdrawalAsset } from './modules/withdrawal';
export { sessionKeyData, PROTOCOL_SCOPE_CODES } from './modules/session-key';
export { whitelistedRecipientsData } from './modules/whitelisted-recipients';
export {
  VAULT_ACTION_KIND,
  vaultDepositData,
  vaultWithdrawData,
  vaultCancelData,
  vaultCreateData,
  vaultMintSharesData,
  vaultBurnSharesData,
} from './modules/vault';
export {
  signTransferPositions,
  verifyTransferPositions,
  type PositionTransferParams,
  type PositionTransferHalf,
} from './position-transfer';
