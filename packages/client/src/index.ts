/**
 * @exchange-api/client for Node: this interface's client (generated: src/generated/surface.gen.ts)
 * and the core that speaks any API given its tables, both with `ws` as their WebSocket. Browsers get
 * src/browser.ts (the "browser" export condition), which uses the global WebSocket and fetch.
 */
import WebSocket from 'ws';
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

const ws = WebSocket as unknown as WebSocketConstructor;

/**
 * Create a client of this interface; the socket is `ws` unless options.WebSocket says otherwise.
 * Nothing is sent until connect().
 */
export function createClient(options: ClientOptions): ExchangeClient {
  return new ExchangeClient({ WebSocket: ws, ...options });
}

/**
 * Create a client of the API `options.api` describes, typed by its method map and channel map (what
 * an SDK generated for another spec calls, with its own tables). Nothing is sent until connect().
 */
export function createApiClient<
  TMethods extends MethodMap<TMethods> = UntypedMethods,
  TChannels extends ChannelMap = ChannelMap,
>(options: ApiClientOptions): ApiClient<TMethods, TChannels> {
  return new ApiClient<TMethods, TChannels>({ WebSocket: ws, ...options });
}

/**
 * Create a client of an API that speaks its own messages (not JSON-RPC), given its generated wire table
 * and validators: what an SDK generated for such a spec calls. Nothing is sent until the first use.
 */
export function createMessageClient<Ops extends OperationMap<Ops>>(
  api: MessageApi,
  options: MessageClientOptions,
): MessageClient<Ops> {
  return new MessageClient<Ops>(api, { WebSocket: ws, ...options });
}
