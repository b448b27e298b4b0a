/** What both entries export, apart from createClient (each entry has its own default socket). */
export {
  ExchangeClient,
  type ClientOptions,
  type ClientEvents,
  type CallOptions,
  type CallParams,
  type CallResult,
  type CallableMethod,
  type ActionInput,
  type ActionSigner,
  type ConnectionState,
  type Handler,
  type Subscription,
  type ValidateMode,
  type ValidationReport,
  type ValidatorSource,
  type ValidatorFn,
  type WebSocketConstructor,
  type WebSocketLike,
} from './client';
export * from './errors';
export type { Rpc, SurfaceCore } from './generated/surface.gen';
export { Limiter, type LimiterOptions, type LimitOverrides } from './limiter';
export { backoffDelay, defaultReconnectPolicy, type ReconnectPolicy } from './backoff';
export type { StreamOptions, OverflowPolicy } from './stream';
export { channels } from '@exchange-api/types';
