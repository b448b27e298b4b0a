/** What both entries export, apart from createClient (each entry has its own default socket). */
export { ExchangeClient } from './client';
export type {
  ApiChannelEntry,
  ApiMethodEntry,
  ApiTables,
  ClientOptions,
  ClientEvents,
  CallOptions,
  CallParams,
  CallResult,
  CallableMethod,
  ActionInput,
  ActionSigner,
  ConnectionState,
  Handler,
  SignerLike,
  Subscription,
  ValidateMode,
  ValidationReport,
  ValidatorSource,
  ValidatorFn,
  WebSocketConstructor,
  WebSocketLike,
} from './types';
export * from './errors';
export { ServerErrors } from './server-errors';
export {
  exchangeApi,
  connectionLimitFromFrame,
  connectionLimitPrefix,
  rpcErrorFromCode,
  rpcStringCode,
} from './exchange';
export type { Rpc, SurfaceCore } from './generated/surface.gen';
export { Limiter, type LimiterOptions, type LimiterTables, type LimitOverrides } from './limiter';
export { backoffDelay, defaultReconnectPolicy, type ReconnectPolicy } from './backoff';
export type { StreamOptions, OverflowPolicy, PayloadStream } from './stream';
export { channels } from '@exchange-api/types';
