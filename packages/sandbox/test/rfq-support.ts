/** What the RFQ tests share: an account, the simulated counterparties' keys, signing as derive-ts does, money reads. */
import { expect } from 'vitest';
import { keccak256, toUtf8Bytes, Wallet, type Signer } from 'ethers';
import { newNonce, signAction } from '@exchange-api/auth';
import { validators, type ValidateFunction } from '@exchange-api/validators';
import { defaultInstruments, type SandboxOptions } from '../src/index';
import { assetOf } from '../src/market/instrument';
import { Client, newWallet, quietMarket, start } from './helpers';

const table = { ...validators.results, ...validators.assumedResults } as Record<string, ValidateFunction>;
/** The result is what the spec says the method returns. */
export const valid = (method: string, result: unknown) =>
  expect(table[method]!(result), `${method}: ${JSON.stringify(table[method]!.errors)}`).toBe(true);

export const inSec = (s: number) => Math.floor(Date.now() / 1000) + s;
/** Exact decimal → units of 10^-12, for comparing money without floats. */
export const units = (d: string | number) => {
  const [i, f = ''] = String(d).replace('-', '').split('.');
  const v = BigInt(i!) * 10n ** 12n + BigInt((f + '0'.repeat(12)).slice(0, 12));
  return String(d).startsWith('-') ? -v : v;
};

/** The quiet one-perp market with the control plane and these RFQ options. */
export const rfqMarket = (rfq: SandboxOptions['rfq'] = {}, more: SandboxOptions = {}) =>
  start({
    ...quietMarket,
    // A taker, a user maker and the five simulated counterparties may each hold a connection.
    limits: { ...quietMarket.limits, connections: { max: 10 } },
    control: true,
    rfq,
    ...more,
  });

/** A fresh wallet logged in on its own connection: its first subaccount, and reads of its money and positions. */
export async function trader(wsUrl: string, w: Signer & { address: string } = newWallet()) {
  const c = await Client.connect(wsUrl);
  const subs: number[] = await c.login(w);
  const sub = subs[0]!;
  return { w, c, subs, sub, ...reads(c) };
}

/** A subaccount's USDC and its position in an instrument, as get_subaccount and get_positions show them. */
export function reads(c: Client) {
  return {
    usdc: async (sub: number) => {
      const p = await c.call('private/get_collaterals', { subaccount_id: sub });
      return units(p.collaterals.find((x: { asset_name: string }) => x.asset_name === 'USDC')?.amount ?? '0');
    },
    position: async (sub: number, instrument: string) => {
      const p = await c.call('private/get_positions', { subaccount_id: sub });
      return units(
        p.positions.find((x: { instrument_name: string }) => x.instrument_name === instrument)?.amount ?? '0',
      );
    },
  };
}

/** The simulated counterparties' keys (they derive from the seed, 1 by default); number 0 is the book's maker. */
export const counterpartyKeys = (seed = 1): Wallet[] =>
  [0, 1, 2, 3, 4, 5].map((i) => new Wallet(keccak256(toUtf8Bytes(`exchange-api sandbox counterparty ${seed} ${i}`))));

/** The legs' assets by instrument name, as the rfq module signs them. */
export function assets(names: string[], listed = quietMarket.instruments as SandboxOptions['instruments']) {
  const all = [...(listed ?? []), ...defaultInstruments];
  return Object.fromEntries(
    names.map((n) => {
      const a = assetOf(all.find((i) => i.instrument_name === n)!);
      return [n, { base_asset_address: a.address, base_asset_sub_id: a.subId }];
    }),
  );
}

type Legs = Array<{ instrument_name: string; amount: string; direction: string; price: string }>;

/** A signed rfq-module request (send_quote, replace_quote, execute_quote) as derive-ts sends it: a string nonce. */
export function signRfq(
  by: Signer,
  method: string,
  params: Record<string, unknown> & { subaccount_id: number; legs: Legs },
  listed?: SandboxOptions['instruments'],
) {
  return signAction(
    by,
    method,
    { nonce: newNonce(), signature_expiry_sec: inSec(900), ...params },
    {
      instruments: assets(
        params.legs.map((l) => l.instrument_name),
        listed,
      ),
    },
  );
}
