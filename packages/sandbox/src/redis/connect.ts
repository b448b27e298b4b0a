/**
 * The Redis connections of a fleet member: to one Redis (`redis`) or to a Redis Cluster (`redisCluster`,
 * ioredis's Cluster, which sends each command to the master of its key's slot). The client (ioredis) is
 * imported here, lazily, and this file is itself imported only when one of them is set: a sandbox
 * without them loads no Redis client.
 *
 * Commands never queue: while Redis is unreachable every command fails at once (no offline queue, no
 * retry of a request in flight), and the request that needed it is answered with `unreachable` below,
 * never served on a guess. The connections reconnect by themselves, so service is back when Redis is.
 */
import type { Cluster, Redis } from 'ioredis';
import { RpcFailure } from '../rpc';
import { redacted, REDIS_PASSWORD_ENV } from './redact';
import { parseSeeds, redactedSeeds } from './seeds';

/** Where the failures of writes nobody waits for go (the fault counters and the log). */
export type FaultSink = (where: string, err: unknown) => void;

/**
 * A connection to the fleet's Redis, one server or a cluster: the fleet's code uses only what both
 * answer alike (single-slot commands, scripts whose keys share a hash tag, MULTI on one slot, pub/sub).
 */
export type RedisClient = Redis | Cluster;

/** Where the fleet's Redis is, as given: the flag (for messages) and its value. */
export interface RedisTarget {
  flag: '--redis' | '--redis-cluster';
  value: string;
}

/** How long the first connection may take before the sandbox gives up starting. */
export const CONNECT_TIMEOUT_MS = 3000;
/** The longest pause between reconnection attempts once Redis is lost. */
const RECONNECT_MAX_MS = 500;

/** Redis could not be reached when the sandbox started (the command's one line, exit 2). */
export class RedisUnreachableError extends Error {
  constructor(url: string, why: string, flag: RedisTarget['flag'] = '--redis') {
    super(`${flag} ${flag === '--redis' ? redacted(url) : redactedSeeds(url)}: Redis is unreachable (${why})`);
    this.name = 'RedisUnreachableError';
  }
}

export { redacted } from './redact';
export { redactedSeeds } from './seeds';

/** Open a connection to the target and wait until it is ready; throws RedisUnreachableError when it cannot be. */
export function openTarget(target: RedisTarget, name: string, subscriber = false): Promise<RedisClient> {
  return target.flag === '--redis' ? openRedis(target.value, name) : openCluster(target.value, name, subscriber);
}

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
  await ready(client, (why) => new RedisUnreachableError(url, why));
  return client;
}

/**
 * Open a connection to a Redis Cluster from its seeds and wait until it knows the cluster's slots and
 * is ready; throws RedisUnreachableError when it cannot be. Its nodes' connections are opened as
 * openRedis's are (no offline queue, no retry of a request in flight; a lost node is reconnected).
 */
export async function openCluster(seeds: string, name: string, subscriber = false): Promise<Cluster> {
  const { Cluster: Client } = await import('ioredis');
  const { nodes, password, tls } = parseSeeds(seeds);
  const client = new Client(nodes, {
    lazyConnect: true,
    enableOfflineQueue: false,
    clusterRetryStrategy: (times) => Math.min(times * 50, RECONNECT_MAX_MS),
    // A loaded machine answers CLUSTER SLOTS late; the default (1 s) took a slow answer for a lost cluster.
    slotsRefreshTimeout: CONNECT_TIMEOUT_MS,
    // The bus's subscriptions go to the master of their shard channels' slot (see publish below).
    shardedSubscribers: subscriber,
    redisOptions: {
      password: password ?? (process.env[REDIS_PASSWORD_ENV] || undefined),
      tls: tls ? {} : undefined,
      maxRetriesPerRequest: 0,
      connectTimeout: CONNECT_TIMEOUT_MS,
      connectionName: name,
    },
  });
  await ready(client, (why) => new RedisUnreachableError(seeds, why, '--redis-cluster'));
  return client;
}

/** Connect `client` and ping it within CONNECT_TIMEOUT_MS, or disconnect it and throw `failed(why)`. */
async function ready(client: RedisClient, failed: (why: string) => Error): Promise<void> {
  let last = 'no answer';
  const onError = (err: Error & { lastNodeError?: Error }) =>
    (last = err.lastNodeError?.message || err.message || String(err));
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
    throw failed(last !== 'no answer' ? last : (err as Error).message);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Publish on the fleet's bus; resolves with how many subscribers got it. On a cluster a PUBLISH counts
 * only the subscribers of the node it reached, and the fleet counts on the number (an owner that heard
 * no call did not serve it; a call to everyone waits for as many answers as it had listeners): there
 * the bus is sharded pub/sub (SPUBLISH, SSUBSCRIBE), every channel in the one slot of `{bus}` (keys.ts),
 * so the master of that slot holds every subscription and counts them all.
 */
export async function publish(redis: RedisClient, channel: string, message: string): Promise<number> {
  return Number(redis.isCluster ? await redis.spublish(channel, message) : await redis.publish(channel, message));
}

/** Listen on the fleet's bus (see publish): `onMessage` gets each message of these channels. */
export async function subscribe(
  sub: RedisClient,
  channels: string[],
  onMessage: (channel: string, text: string) => void,
): Promise<void> {
  sub.on(sub.isCluster ? 'smessage' : 'message', onMessage);
  await (sub.isCluster ? sub.ssubscribe(...channels) : sub.subscribe(...channels));
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
