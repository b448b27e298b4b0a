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
export {
  tradeData,
  rfqQuoteData,
  toE18,
  ActionDataError,
  type ActionInstrument,
  type TradeParams,
  type QuoteLeg,
  type DecimalInput,
} from './action-data';
