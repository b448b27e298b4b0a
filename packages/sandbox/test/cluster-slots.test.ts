/**
 * On a Redis Cluster a script (and a MULTI) may touch keys of one slot only. Every script the fleet
 * defines is listed here with the keys its callers give it, built by keys.ts from awkward names (IPv6
 * addresses, instruments with dashes, braces in a name), and their slots are computed as the cluster
 * computes them (cluster-key-slot, ioredis's own): one slot each. A script added without its key set
 * here fails the first test.
 */
import { describe, expect, it } from 'vitest';
import calculateSlot, { generateMulti } from 'cluster-key-slot';
import { Redis } from 'ioredis';
import { channels, keys, slotPart } from '../src/redis/keys';
import { defined, run } from '../src/redis/scripts';
// Every module that defines a script, through the fleet that assembles them.
import '../src/redis/fleet';

const instruments = ['ETH-PERP', 'ETH-20261231-3000-C', 'a{b}c', '{}'];
const ips = ['127.0.0.1', '::ffff:10.0.0.5', '2001:db8::1'];
const members = ['m1', 'm22', 'm{3}'];
const book = (i: string) => [keys.lease(i), keys.epoch(i), keys.book(i)];
const conn = (ip: string) => [keys.connections(ip), keys.connectionsFirst(ip)];

/** The key sets each script is run with (as its callers build them), for every sample name. */
const keySets: Record<string, string[][]> = {
  xsbLeaseClaim: instruments.map((i) => [keys.lease(i), keys.epoch(i)]),
  xsbLeaseRelease: instruments.map((i) => [keys.lease(i)]),
  xsbBookWrite: instruments.map(book),
  xsbBookRewrite: instruments.map(book),
  xsbRfqRewrite: instruments.map((i) => [keys.lease(i), keys.epoch(i), keys.rfqs(i)]),
  xsbLeave: members.map((m) => [
    keys.alive(m),
    keys.members,
    keys.config,
    keys.generation,
    ...members.filter((o) => o !== m).map(keys.alive),
  ]),
  xsbSlotTake: ips.map(conn),
  xsbSlotRelease: ips.map(conn),
  xsbSlotHold: ips.map((ip) => [keys.connections(ip)]),
  xsbSlotReport: ips.map(conn),
  xsbWindowSpend: [[keys.window('non_matching', '0xabc')]],
  xsbBucketTake: [[keys.bucket('bucket_perp_spot', '0xabc:ETH-PERP')]],
  xsbNonceClaim: [[keys.nonce('0xabc', '1700000000000123')]],
  xsbGeneration: [[keys.generation]],
  xsbSeqAtLeast: [[keys.memberSeq]],
  xsbSharedPut: ['session-keys', 'whitelists', 'mmp', 'cancel-on-disconnect'].map((k) => [
    keys.shared(k),
    keys.sharedVersion,
  ]),
};

/** The keys of each MULTI the fleet sends (members.ts refresh; pushes.ts rewrite). */
const transactions: string[][] = [
  ...members.map((m) => [keys.alive(m), keys.members, keys.config]),
  ...members.map((m) => [keys.subscriptions(m)]),
];

describe('every key set of the fleet is in one cluster slot', () => {
  it('lists every script the fleet defines', () => {
    expect([...defined.keys()].sort()).toEqual(Object.keys(keySets).sort());
  });

  it.each(Object.entries(keySets))('%s: the keys of each call share a slot', (name, sets) => {
    for (const set of sets) {
      expect(set.length, `${name} takes ${defined.get(name)!.numberOfKeys} keys`).toBe(
        defined.get(name)!.numberOfKeys < 0 ? set.length : defined.get(name)!.numberOfKeys,
      );
      expect(generateMulti(set), `${name}: ${set.map((k) => `${k} → ${calculateSlot(k)}`).join(', ')}`).not.toBe(-1);
    }
  });

  it('each MULTI touches one slot', () => {
    for (const set of transactions) expect(generateMulti(set), set.join(', ')).not.toBe(-1);
  });

  it('the bus: every channel in one slot (sharded pub/sub counts its subscribers on one master)', () => {
    const all: string[] = [channels.push, channels.subscriptions, channels.everyone, channels.shared];
    for (const m of members) all.push(channels.calls(m), channels.replies(m), channels.sharedAcks(m));
    expect(generateMulti(all), all.join(', ')).not.toBe(-1);
  });

  it('keys.ts reads a hash tag as Redis does', () => {
    const samples = [...Object.values(keySets).flat(2), ...transactions.flat(), 'xsb:{}:x', 'a{', 'a}{b}', '{a}{b}'];
    for (const key of samples) expect(calculateSlot(slotPart(key)), key).toBe(calculateSlot(key));
  });

  it('a script refuses keys of more than one slot before it reaches Redis', async () => {
    // Never connected: the refusal comes first.
    const redis = new Redis({ lazyConnect: true });
    const claim = defined.get('xsbLeaseClaim')!;
    await expect(
      run(redis, claim, [keys.lease('ETH-PERP'), keys.epoch('BTC-PERP')], ['m1', 10_000, '1', '0']),
    ).rejects.toThrow(/xsbLeaseClaim was given keys of more than one cluster slot \(book:ETH-PERP, book:BTC-PERP\)/);
    expect(redis.status).toBe('wait');
  });
});
