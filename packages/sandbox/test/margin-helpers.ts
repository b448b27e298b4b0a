/**
 * A small account for the margin, liquidation and clock tests: a wallet logged in over a real
 * WebSocket whose first subaccount keeps `keep` USDC (the rest withdrawn with a real signature), with
 * helpers to order TEST-PERP, read its cash and position, and move the mark through the control plane.
 */
import { expect } from 'vitest';
import type { Signer } from 'ethers';
import { signAction } from '@exchange-api/auth';
import { cashAssetOf } from '../src/market/funds';
import type { SandboxOptions } from '../src/index';
import { Client, control, newWallet, quietMarket, signed, start } from './helpers';

const USDC = cashAssetOf('USDC');
let lastNonce = Date.now() * 1000;
/** A whole-number nonce, never reused in this process. */
export const nextNonce = () => ++lastNonce;
const inSec = (s: number) => Math.floor(Date.now() / 1000) + s;

/** A signed withdrawal of `amount` USDC from `sub`. */
export async function withdrawal(w: Signer, owner: string, sub: number, amount: string) {
  return signAction(
    w,
    'private/withdraw',
    {
      subaccount_id: sub,
      asset_name: 'USDC',
      amount_in_underlying: amount,
      max_fee_usd: '0',
      force_batch: false,
      nonce: nextNonce(),
      signature_expiry_sec: inSec(600),
    } as never,
    { owner, asset: USDC },
  );
}

/** A sandbox (quiet market, control plane, `extra` options) and a logged-in account holding `keep` USDC. */
export async function smallAccount(keep: number, extra: SandboxOptions = {}) {
  const sb = await start({ ...quietMarket, control: true, ...extra });
  const w = newWallet();
  const c = await Client.connect(sb.wsUrl);
  const [sub] = (await c.login(w)) as [number];
  const cash = async (s = sub) =>
    Number(
      (await c.call('private/get_collaterals', { subaccount_id: s })).collaterals.find(
        (x: { asset_name: string }) => x.asset_name === 'USDC',
      )?.amount ?? 0,
    );
  await c.call('private/withdraw', await withdrawal(w, w.address, sub, String((await cash()) - keep)));
  expect(await cash()).toBe(keep);
  const order = async (direction: string, amount: string, price: string, instrument = 'TEST-PERP') =>
    c.request(
      'private/order',
      await signed(w, 'private/order', {
        subaccount_id: sub,
        instrument_name: instrument,
        direction,
        amount,
        limit_price: price,
        max_fee: '1000',
      }),
    );
  const position = async (instrument = 'TEST-PERP') =>
    (await c.call('private/get_positions', { subaccount_id: sub })).positions.find(
      (p: { instrument_name: string }) => p.instrument_name === instrument,
    );
  const mark = async (price: number, instrument = 'TEST-PERP') => {
    const r = await control(sb, 'mark', { instrument, price });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  };
  return { sb, w, c, sub, cash, order, position, mark };
}
