/**
 * @exchange-api/sandbox: a local exchange implementing the whole interface (JSON-RPC over WebSocket
 * and HTTP POST, login, both rate-limit tiers, connection limits, a simulated market, order flow and
 * an optional control plane), driven by the generated tables.
 */
export { startSandbox, MAX_SUBSCRIPTIONS_PER_CONNECTION, type Sandbox } from './server';
export {
  resolveOptions,
  defaultInstruments,
  SandboxOptionsError,
  type SandboxOptions,
  type ResolvedOptions,
  type SessionKeyConfig,
  type WalletConfig,
  type InstrumentConfig,
  type LimitOverride,
} from './options';
export { derivedSubaccounts } from './accounts';
export { redacted as redactRedisUrl, REDIS_PASSWORD_ENV } from './redis/redact';
export { redactedSeeds as redactRedisSeeds } from './redis/seeds';

/**
 * Whether Redis answers at `url` (throws the one-line RedisUnreachableError when it does not). The
 * Redis client is loaded only by this call.
 */
export async function probeRedis(url: string): Promise<void> {
  const { openRedis } = await import('./redis/connect');
  (await openRedis(url, 'exchange-api-sandbox-probe')).disconnect();
}

/** Whether a Redis Cluster answers from `seeds` (throws the one-line RedisUnreachableError when it does not). */
export async function probeRedisCluster(seeds: string): Promise<void> {
  const { openCluster } = await import('./redis/connect');
  (await openCluster(seeds, 'exchange-api-sandbox-probe')).disconnect();
}
