/**
 * @exchange-api/client for browsers (and any runtime with a global WebSocket and fetch): no Node
 * built-ins, no `ws`.
 */
export * from './exports';
export { createClient } from './client';
