/**
 * The Redis connections of a fleet member. The client (ioredis) is imported here, lazily, and this file
 * is itself imported only when `redis` is set: a sandbox without it loads no Redis client.
 *
 * Commands never queue: while Redis is unreachable every command fails at once (no offline queue, no
 * retry of a request in flight), and the request that needed it is answered with `unreachable` below,
 * never served on a guess. The connections reconnect by themselves, so service is back when Redis is.
 */
import type { Redis } from 'ioredis';
import { RpcFailure } from '../rpc';
import { redacted, REDIS_PASSWORD_ENV } from './redact';

/** How long the first connection may take before the sandbox gives up starting. */
export const CONNECT_TIMEOUT_MS = 3000;
/** The longest pause between reconnection attempts once Redis is lost. */
const RECONNECT_MAX_MS = 500;

/** Redis could not be reached when the sandbox started (the command's one line, exit 2). */
export class RedisUnreachableError extends Error {
  constructor(url: string, why: string) {
    super(`--redis ${redacted(url)}: Redis is unreachable (${why})`);
    this.name = 'RedisUnreachableError';
  }
}

export { redacted } from './redact';

/** Open one connection and wait until it is ready; throws RedisUnreachableError when it cannot be. */
export async function openRedis(url: string, name: string): Promise<Redis> {
  const { Redis: Client } = await import('ioredis');
  const client = new Client(url, {
    // Used only when the URL carries no password (ioredis: the URL's own wins).
    password: process.env[REDIS_PASSWORD_ENV] || undefined,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    connectionName: name,
    retryStrategy: (times) => Math.min(times * 50, RECONNECT_MAX_MS),
  });
  let last = 'no answer';
  const onError = (err: Error) => (last = err.message || String(err));
  client.on('error', onError);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
    await client.ping();
  } catch (err) {
    client.disconnect();
    // The socket's own error says more ("connect ECONNREFUSED …") than the promise's ("Connection is closed.").
    throw new RedisUnreachableError(url, last !== 'no answer' ? last : (err as Error).message);
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * The error a request gets while the fleet's shared state is unreachable: -32603 naming the cause.
 * Nothing was charged, spent or done for it, and it may be sent again once Redis is back.
 */
export function unreachable(err: unknown): RpcFailure {
  if (err instanceof RpcFailure) return err;
  const why = err instanceof Error ? err.message : String(err);
  return RpcFailure.of(
    'RPC_INTERNAL_ERROR',
    `the exchange's shared state (Redis) is unreachable (${why.slice(0, 120)}): ` +
      'the request was not served; retry once it is back',
  );
}

/**
 * Run a step against Redis; a failure is reported to `fault` (the fault counters and the log: the
 * request's answer alone would hide it from the operator) and becomes `unreachable`.
 */
export async function guarded<T>(step: () => Promise<T>, fault: (err: unknown) => void): Promise<T> {
  try {
    return await step();
  } catch (err) {
    fault(err);
    throw unreachable(err);
  }
}
