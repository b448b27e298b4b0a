/**
 * @exchange-api/client for browsers (and any runtime with a global WebSocket and fetch): no Node
 * built-ins, no `ws`.
 */
import { ApiClient } from './client';
import { MessageClient } from './messages/message-client';
import type { MessageApi, MessageClientOptions, OperationMap } from './messages/wire-table';
import { ExchangeClient } from './generated/surface.gen';
import type {
  ApiClientOptions,
  ChannelMap,
  ClientOptions,
  MethodMap,
  UntypedMethods,
  WebSocketConstructor,
} from './types';

export * from './exports';

/** Create a client of this interface. Nothing is sent until connect(). */
export function createClient(options: ClientOptions): ExchangeClient {
  return new ExchangeClient(options);
}

/**
 * Create a client of the API `options.api` describes, typed by its method and channel maps. Nothing is
 * sent until connect().
 */
export function createApiClient<
  TMethods extends MethodMap<TMethods> = UntypedMethods,
  TChannels extends ChannelMap = ChannelMap,
>(options: ApiClientOptions): ApiClient<TMethods, TChannels> {
  return new ApiClient<TMethods, TChannels>(options);
}

/**
 * Create a client of an API that speaks its own messages (not JSON-RPC), given its generated wire table
 * and validators: what an SDK generated for such a spec calls. Nothing is sent until the first use.
 */
export function createMessageClient<Ops extends OperationMap<Ops>>(
  api: MessageApi,
  options: MessageClientOptions,
): MessageClient<Ops> {
  return new MessageClient<Ops>(api, {
    WebSocket: globalThis.WebSocket as unknown as WebSocketConstructor,
    noHeaders: "a browser's WebSocket cannot send headers (options.headers)",
    ...options,
  });
}
