/**
 * @exchange-api/client for Node: the core client with `ws` as its WebSocket. Browsers get
 * src/browser.ts (the "browser" export condition), which uses the global WebSocket and fetch.
 */
import WebSocket from 'ws';
import { ExchangeClient } from './client';
import { exchangeApi } from './exchange';
import type { ClientOptions, WebSocketConstructor } from './types';

export * from './exports';

/**
 * Create a client; in Node the socket is `ws` unless options.WebSocket says otherwise. It speaks this
 * interface unless `options.api` gives another API's tables. Nothing is sent until connect().
 */
export function createClient(options: ClientOptions): ExchangeClient {
  return new ExchangeClient({
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    ...options,
    api: options.api ?? exchangeApi,
  });
}
