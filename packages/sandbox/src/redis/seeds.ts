/**
 * A Redis Cluster's seeds as `redisCluster` takes them: `HOST:PORT[,HOST:PORT…]`, each also as
 * `redis://[:PASSWORD@]HOST:PORT` or `rediss://…` (TLS). Read here, and printed without their
 * passwords; this file loads nothing (the options check seeds before any Redis client is loaded).
 */
import { redacted } from './redact';

/** A list of cluster seeds as it may be printed: each one's password replaced by `***`. */
export function redactedSeeds(seeds: string): string {
  return seeds.split(',').map(redactedSeed).join(',');
}

/** One seed as it may be printed (a URL's password, or anything before an @ of a seed without a scheme). */
function redactedSeed(seed: string): string {
  return /^[a-z]+:\/\//i.test(seed) ? redacted(seed) : seed.replace(/^[^@]*@/, '***@');
}

/** The nodes to start from, and what every node's connection uses (a cluster has one password, TLS or none). */
export interface ClusterSeeds {
  nodes: Array<{ host: string; port: number }>;
  password: string | undefined;
  tls: boolean;
}

/**
 * Read `HOST:PORT[,HOST:PORT…]` (each may be `redis://[:PASSWORD@]HOST:PORT`, or `rediss://…` for TLS).
 * Throws an Error naming the seed that is wrong; the password never appears in it.
 */
export function parseSeeds(text: string): ClusterSeeds {
  const nodes: ClusterSeeds['nodes'] = [];
  const passwords = new Set<string>();
  const schemes = new Set<string>();
  for (const [i, seed] of text.split(',').entries()) {
    const m = /^(?:(rediss?):\/\/(?:([^@/]*)@)?)?(\[[0-9a-fA-F:.]+\]|[^\s/:@[\]]+):([0-9]{1,5})\/?$/.exec(seed.trim());
    if (!m || Number(m[4]) < 1 || Number(m[4]) > 65535)
      throw new Error(
        `seed ${i + 1} (${JSON.stringify(redactedSeed(seed))}) is not ` +
          'HOST:PORT, redis://[:PASSWORD@]HOST:PORT or rediss://…',
      );
    schemes.add(m[1] ?? 'redis');
    const password = m[2] === undefined ? '' : decodeURIComponent(m[2].replace(/^[^:]*:/, ''));
    if (password !== '') passwords.add(password);
    nodes.push({ host: m[3]!.replace(/^\[|\]$/g, ''), port: Number(m[4]) });
  }
  if (schemes.size > 1)
    throw new Error('the seeds mix redis:// and rediss://: a cluster is reached with TLS or without');
  if (passwords.size > 1) throw new Error('the seeds carry different passwords: a cluster has one');
  return { nodes, password: [...passwords][0], tls: schemes.has('rediss') };
}
