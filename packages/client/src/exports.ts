/** What both entries export, apart from createClient and createApiClient (each entry has its own default socket). */
export { ApiClient } from './client';
export { ExchangeClient, exchangeApi } from './generated/surface.gen';
export type {
  ActionInput,
  ActionSigner,
  CallableMethod,
  CallParams,
  CallResult,
  ExchangeChannels,
  Handler,
  Rpc,
  SurfaceCore,
} from './generated/surface.gen';
export type {
  ApiActionInput,
  ApiChannelEntry,
  ApiClientOptions,
  ApiHandler,
  ApiMethodEntry,
  ApiParams,
  ApiPayload,
  ApiResult,
  ApiTables,
  ChannelMap,
  ClientOptions,
  ClientEvents,
  CallOptions,
  ConnectionState,
  MethodMap,
  MethodNameOf,
  MethodTypes,
  NamedResult,
  SignerLike,
  Subscription,
  UntypedMethods,
  ValidateMode,
  ValidationReport,
  ValidatorSource,
  ValidatorFn,
  WebSocketConstructor,
  WebSocketLike,
} from './types';
export * from './errors';
export { ServerErrors } from './server-errors';
export { connectionLimitFromFrame, connectionLimitPrefix, rpcErrorFromCode, rpcStringCode } from './exchange';
export { Limiter, type LimiterOptions, type LimiterTables, type LimitOverrides } from './limiter';
export { backoffDelay, defaultReconnectPolicy, type ReconnectPolicy } from './backoff';
export type { StreamOptions, OverflowPolicy, PayloadStream } from './stream';
export { channels } from '@exchange-api/types';
export { MessageClient, type MessageClientEvents } from './messages/message-client';
export type {
  AddressOptions,
  MessageApi,
  MessageClientOptions,
  OperationMap,
  OperationTypes,
  ReceiveId,
  RequestId,
  RequestOptions,
  SendId,
  WireTable,
  WireValidators,
} from './messages/wire-table';
