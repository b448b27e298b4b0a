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
  recoverActionSigner,
  actionParamsHash,
  actionMessage,
  canonicalJson,
  newNonce,
  defaultActionLayout,
  type ActionLayout,
  type ActionFields,
} from './action';
