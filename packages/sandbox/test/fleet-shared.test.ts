/**
 * What the API registers is every member's at once (redis/shared.ts): a session key registered, edited
 * or narrowed through one member is honoured or refused on every other as soon as its answer comes; a
 * wallet's whitelisted recipients, its cancel-on-disconnect setting and its MMP configs and freezes
 * likewise. Two members on a redis-server of the test's own.
 */
import { describe, expect, it } from 'vitest';
import type { Signer } from 'ethers';
import { loginHeaders, newNonce, signAction, signLogin } from '@exchange-api/auth';
import { Client, newWallet, post, signed, signFor } from './helpers';
import { hasRedisServer, NO_REDIS } from './redis-server';
import { quiet, useFleet } from './fleet-setup';
import { Redis } from 'ioredis';
import type { Sandbox, SandboxOptions } from '../src/index';
import { keys } from '../src/redis/keys';

const fleet = useFleet();
const inSec = (s: number) => Math.floor(Date.now() / 1000) + s;

/** Two perps of one currency, so that each member of two owns one. */
const twoBooks: SandboxOptions = {
  ...quiet,
  instruments: ['TST-PERP', 'TSX-PERP'].map((instrument_name) => ({
    instrument_name,
    instrument_type: 'perp' as const,
    base_currency: 'TST',
    tick_size: '0.01',
    amount_step: '0.1',
    price: 100,
  })),
};

async function pair(options: SandboxOptions = twoBooks): Promise<[Sandbox, Sandbox]> {
  signFor(options.instruments);
  const a = await fleet.start({ ...options, redis: fleet.redis().url });
  const b = await fleet.start({ ...options, redis: fleet.redis().url });
  // A owned every book at first; B takes its share at A's next cycles (a look every 20 ms, bounded by the test).
  while (b.fleet!.owned().length === 0 || a.fleet!.owned().length !== 1) await new Promise((r) => setTimeout(r, 20));
  return [a, b];
}

async function trader(url: string, w = newWallet()) {
  const c = await Client.connect(url);
  const [sub] = await c.login(w);
  const order = async (fields: Record<string, unknown>, signer: Signer = w) =>
    c.request(
      'private/order',
      await signed(signer, 'private/order', { ...fields, subaccount_id: sub! }, { owner: w.address }),
    );
  return { w, c, sub: sub!, order };
}

const sell = (instrument_name: string, amount = '1') => ({
  instrument_name,
  direction: 'sell',
  order_type: 'limit',
  limit_price: '100.01',
  max_fee: '1',
  amount,
});

/** A set_session_key of the wallet for `key`, trade:all unless the fields say otherwise. */
async function registration(w: Signer & { address: string }, key: string, fields: Record<string, unknown> = {}) {
  return signAction(w, 'private/set_session_key', {
    wallet: w.address,
    public_session_key: key,
    expiry_sec: inSec(3600),
    protocol_scopes: ['trade:all'],
    offchain_scopes: ['account_info'],
    subaccount_ids: null,
    nonce: newNonce(),
    signature_expiry_sec: inSec(600),
    ...fields,
  } as never);
}

describe.skipIf(!hasRedisServer)(`shared across the fleet${hasRedisServer ? '' : ` (skipped: ${NO_REDIS})`}`, () => {
  it('a key registered on A signs on B; narrowed to read-only on A it signs nothing on B', async () => {
    const [a, b] = await pair();
    const onA = await trader(a.wsUrl);
    const key = newWallet();
    expect(
      (await onA.c.request('private/set_session_key', await registration(onA.w, key.address))).result,
    ).toBeTruthy();
    // The key logs in on B and signs there, on a book of either member.
    const k = await Client.connect(b.wsUrl);
    expect((await k.request('public/login', await signLogin(key, { wallet: onA.w.address }))).result).toBeTruthy();
    const onB = { ...onA, c: k };
    const place = async (instrument: string) =>
      k.request(
        'private/order',
        await signed(key, 'private/order', { ...sell(instrument), subaccount_id: onB.sub }, { owner: onA.w.address }),
      );
    const first = await place('TST-PERP');
    expect(first.error).toBeUndefined();
    expect(first.result.order.order_status).toBe('open');
    expect((await place('TSX-PERP')).result.order.order_status).toBe('open');
    expect(await k.call('public/get_wallets_from_session_key', { public_session_key: key.address })).toEqual({
      wallets: [onA.w.address],
    });
    // Narrowed on A (registered again, read only): its next signature through B is refused at once.
    const narrowed = await registration(onA.w, key.address, { protocol_scopes: [], offchain_scopes: ['account_info'] });
    expect((await onA.c.request('private/set_session_key', narrowed)).result).toBeTruthy();
    // Refused to its own session (its scope, 14003) and to the wallet's session it signs for (14004).
    const wallet = await trader(b.wsUrl, onA.w);
    for (const instrument of ['TST-PERP', 'TSX-PERP']) {
      expect((await place(instrument)).error).toMatchObject({
        code: 14003,
        data: expect.stringMatching(/lacks the trade scope/),
      });
      expect((await wallet.order(sell(instrument), key)).error).toMatchObject({
        code: 14004,
        data: expect.stringMatching(/lacks the trade scope/),
      });
    }
    // An IP whitelist set on A shuts the key's session on B out on its next request.
    const edited = await onA.c.request('private/edit_session_key', {
      wallet: onA.w.address,
      public_session_key: key.address,
      ip_whitelist: ['203.0.113.7'],
    });
    expect(edited.result.ip_whitelist).toEqual(['203.0.113.7']);
    const shut = await k.request('private/get_subaccounts', { wallet: onA.w.address });
    expect(shut.error).toMatchObject({ code: 14003, data: expect.stringMatching(/whitelist/) });
    const listed = await (await trader(b.wsUrl, onA.w)).c.call('private/session_keys', { wallet: onA.w.address });
    expect(listed.public_session_keys).toEqual([
      expect.objectContaining({ public_session_key: key.address, ip_whitelist: ['203.0.113.7'] }),
    ]);
  });

  it("whitelisted recipients and cancel on disconnect set on A are B's", async () => {
    const [a, b] = await pair();
    const onA = await trader(a.wsUrl);
    const payee = newWallet().address;
    const update = await signAction(onA.w, 'private/update_whitelisted_recipients', {
      wallet: onA.w.address,
      add: [payee],
      remove: [],
      nonce: newNonce(),
      signature_expiry_sec: inSec(600),
    } as never);
    await onA.c.call('private/update_whitelisted_recipients', update);
    expect(await onA.c.call('private/set_cancel_on_disconnect', { enabled: true })).toBe('ok');
    const onB = await trader(b.wsUrl, onA.w);
    const account = await onB.c.call('private/get_account', { wallet: onA.w.address });
    expect(account).toMatchObject({ cancel_on_disconnect: true, whitelisted_recipients: [payee] });
    // The wallet's last connection closes (on A): its orders on both members' books are cancelled.
    onB.c.close();
    await onB.c.closed;
    const ids = [];
    for (const name of ['TST-PERP', 'TSX-PERP']) ids.push((await onA.order(sell(name))).result.order.order_id);
    // Read over HTTP, which holds no connection.
    const headers = loginHeaders(await signLogin(onA.w));
    const open = async () =>
      (await post(b, '/v3/private/get_open_orders', { subaccount_id: onA.sub }, headers)).json.result.orders;
    expect((await open()).map((o: { order_id: string }) => o.order_id).sort()).toEqual([...ids].sort());
    onA.c.close();
    // Until both are cancelled (bounded by the test's timeout).
    while ((await open()).length > 0) await new Promise((r) => setTimeout(r, 20));
    const own = (sb: Sandbox) => sb.fleet!.owned()[0]!;
    for (const sb of [a, b]) {
      const id = ids[own(sb) === 'TST-PERP' ? 0 : 1]!;
      const got = await post(sb, '/v3/private/get_order', { subaccount_id: onA.sub, order_id: id }, headers);
      expect(got.json.result).toMatchObject({ order_status: 'cancelled', cancel_reason: 'cancel_on_disconnect' });
    }
  });

  it("an MMP freeze by fills on one member's book blocks mmp orders through the other, on its book", async () => {
    const [a, b] = await pair();
    const [onA, onB] = [a.fleet!.owned()[0]!, b.fleet!.owned()[0]!];
    const maker = await trader(a.wsUrl);
    const set = { subaccount_id: maker.sub, currency: 'TST', mmp_amount_limit: '1.5', mmp_interval: 60_000 };
    await maker.c.call('private/set_mmp_config', { ...set, mmp_frozen_time: 0 });
    const makerOnB = await trader(b.wsUrl, maker.w);
    expect(await makerOnB.c.call('private/get_mmp_config', { subaccount_id: maker.sub })).toEqual([
      expect.objectContaining({ currency: 'TST', mmp_amount_limit: '1.5', is_frozen: false }),
    ]);
    await makerOnB.c.call('subscribe', { channels: [`${maker.sub}.orders`] });
    const onItsBook = (await makerOnB.order({ ...sell(onB), mmp: true })).result.order;
    await maker.order({ ...sell(onA, '2'), mmp: true });
    // A taker on A fills 1.6 of the maker's mmp order on A's book: past the limit, the maker freezes.
    const taker = await trader(a.wsUrl);
    await taker.order({ ...sell(onA, '1.6'), direction: 'buy', time_in_force: 'ioc' });
    // Answered: B holds the freeze, and cancelled the maker's mmp order on its own book.
    expect(await makerOnB.c.call('private/get_mmp_config', { subaccount_id: maker.sub })).toEqual([
      expect.objectContaining({ is_frozen: true, mmp_unfreeze_time: 0 }),
    ]);
    const cancelled = await makerOnB.c.nextPush(`${maker.sub}.orders`, undefined, (d) =>
      d.some(
        (o: { order_id: string; order_status: string }) =>
          o.order_id === onItsBook.order_id && o.order_status === 'cancelled',
      ),
    );
    expect(cancelled.find((o: { order_id: string }) => o.order_id === onItsBook.order_id).cancel_reason).toBe(
      'mmp_trigger',
    );
    expect((await makerOnB.order({ ...sell(onB), mmp: true })).error).toMatchObject({
      code: 11015,
      data: expect.stringMatching(/^mmp is frozen .* until reset_mmp/),
    });
    // Reset on B: A takes mmp orders again.
    expect(await makerOnB.c.call('private/reset_mmp', { subaccount_id: maker.sub })).toBe('ok');
    expect((await maker.order({ ...sell(onA), mmp: true })).result.order.order_status).toBe('open');
  });

  it("a subaccount's label changed through A is read through B", async () => {
    const [a, b] = await pair();
    const onA = await trader(a.wsUrl);
    const onB = await trader(b.wsUrl, onA.w);
    const changed = await onA.c.call('private/change_subaccount_label', { subaccount_id: onA.sub, label: 'hedges' });
    expect(changed).toEqual({ subaccount_id: onA.sub, label: 'hedges' });
    expect((await onB.c.call('private/get_subaccount', { subaccount_id: onA.sub })).label).toBe('hedges');
  });

  it('after Redis lost everything, a member that joins holds the keys as they were narrowed', async () => {
    const [a] = await pair();
    const onA = await trader(a.wsUrl);
    const key = newWallet();
    await onA.c.call('private/set_session_key', await registration(onA.w, key.address));
    const narrowed = await registration(onA.w, key.address, { protocol_scopes: [], offchain_scopes: ['account_info'] });
    await onA.c.call('private/set_session_key', narrowed);
    const r = new Redis(fleet.redis().url, { maxRetriesPerRequest: 0 });
    try {
      const field = `${onA.w.address} ${key.address}`;
      const before = Number((await r.hget(keys.shared('session-keys'), field))!.split(' ')[0]);
      await r.flushall();
      // Each member writes back what it holds at its version (a look every 20 ms, bounded by the test).
      while (!(await r.hexists(keys.shared('session-keys'), field))) await new Promise((res) => setTimeout(res, 20));
      expect(Number((await r.hget(keys.shared('session-keys'), field))!.split(' ')[0])).toBe(before);
      const c = await fleet.start({ ...twoBooks, redis: fleet.redis().url });
      const onC = await trader(c.wsUrl, onA.w);
      for (const instrument of ['TST-PERP', 'TSX-PERP'])
        expect((await onC.order(sell(instrument), key)).error).toMatchObject({
          code: 14004,
          data: expect.stringMatching(/lacks the trade scope/),
        });
      // A change after the loss is newer than every one before it.
      const label = await onC.c.call('private/edit_session_key', {
        wallet: onA.w.address,
        public_session_key: key.address,
        label: 'after',
      });
      expect(label.label).toBe('after');
      expect(Number((await r.hget(keys.shared('session-keys'), field))!.split(' ')[0])).toBeGreaterThan(before);
    } finally {
      r.disconnect();
    }
  });
});
