/**
 * @exchange-api/client for browsers (and any runtime with a global WebSocket and fetch): no Node
 * built-ins, no `ws`.
 */
import { ApiClient } from './client';
import { ExchangeClient } from './generated/surface.gen';
import type { ApiClientOptions, ChannelMap, ClientOptions, MethodMap, UntypedMethods } from './types';

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
