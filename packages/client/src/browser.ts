/**
 * @exchange-api/client for browsers (and any runtime with a global WebSocket and fetch): no Node
 * built-ins, no `ws`.
 */
import { ExchangeClient } from './client';
import { exchangeApi } from './exchange';
import type { ClientOptions } from './types';

export * from './exports';

/** Create a client of this interface, or of the API `options.api` describes. Nothing is sent until connect(). */
export function createClient(options: ClientOptions): ExchangeClient {
  return new ExchangeClient({ ...options, api: options.api ?? exchangeApi });
}
