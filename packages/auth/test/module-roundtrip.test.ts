/**
 * Every signed method of the venue, signed and verified by this package: a round trip under the local
 * deployment (derive-ts's `local`, chain 31337), refused under another, and refused when one field of
 * the module's data is changed after signing. The params are shaped as derive-ts 3.0.13 sends them.
 */
import { describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { actionSignatureTable } from '@exchange-api/types';
import {
  actionDeployments,
  actionKinds,
  actionOf,
  ActionDataError,
  defaultActionLayout,
  deploymentsOf,
  methodKinds,
  moduleOfMethod,
  signAction,
  signTransferPositions,
  verifyAction,
  verifyTransferPositions,
  type ActionContext,
} from '../src/index';

const wallet = Wallet.createRandom();
const sessionKey = Wallet.createRandom();
const [local] = deploymentsOf('local');
const layout = { ...defaultActionLayout, deployment: local! };
const ETH = { base_asset_address: `0x${'aa'.repeat(20)}`, base_asset_sub_id: '0' };
const BTC = { base_asset_address: `0x${'bb'.repeat(20)}`, base_asset_sub_id: '9' };
const USDC = { address: `0x${'cc'.repeat(20)}`, decimals: 6 };
const fields = { subaccount_id: 10, nonce: '1765000000000000001', signature_expiry_sec: 1_900_000_000 };
const legs = [
  { instrument_name: 'ETH-PERP', direction: 'buy', amount: '3', price: '2.5' },
  { instrument_name: 'BTC-PERP', direction: 'sell', amount: '4', price: '0.5' },
];
const quote = { ...fields, rfq_id: 'r1', direction: 'sell', legs, max_fee: '1.5' };

type Case = [method: string, params: Record<string, unknown>, ctx: ActionContext, tamper: Record<string, unknown>];
const cases: Case[] = [
  [
    'private/order',
    { ...fields, instrument_name: 'ETH-PERP', direction: 'buy', amount: '1', limit_price: '3000', max_fee: '10' },
    { instrument: ETH },
    { limit_price: '3001' },
  ],
  [
    'private/replace',
    {
      ...fields,
      instrument_name: 'ETH-PERP',
      direction: 'sell',
      amount: '1',
      limit_price: '3000',
      max_fee: '10',
      order_id_to_cancel: 'o1',
    },
    { instrument: ETH },
    { direction: 'buy' },
  ],
  ['private/send_quote', quote, { instruments: { 'ETH-PERP': ETH, 'BTC-PERP': BTC } }, { max_fee: '1.6' }],
  [
    'private/replace_quote',
    { ...quote, quote_id_to_cancel: 'q0' },
    { instruments: { 'ETH-PERP': ETH, 'BTC-PERP': BTC } },
    { legs: [legs[0], { ...legs[1], price: '0.6' }] },
  ],
  [
    'private/execute_quote',
    { ...quote, quote_id: 'q1', direction: 'buy', max_fee: '2' },
    { instruments: { 'ETH-PERP': ETH, 'BTC-PERP': BTC } },
    { legs: [legs[0], { ...legs[1], amount: '5' }] },
  ],
  [
    'private/transfer_spot',
    {
      ...fields,
      to_subaccount_id: 11,
      new_subaccount_manager: 0,
      asset_name: 'USDC',
      sub_id: 0,
      amount: '100',
      max_fee_usd: '0',
    },
    { asset: USDC },
    { to_subaccount_id: 12 },
  ],
  [
    'private/transfer_spot_external',
    {
      ...fields,
      recipient_address: `0x${'dd'.repeat(20)}`,
      to_subaccount_id: 77,
      new_subaccount_manager: 0,
      asset_name: 'USDC',
      sub_id: 0,
      amount: '100',
      max_fee_usd: '1',
    },
    { asset: USDC },
    { recipient_address: `0x${'de'.repeat(20)}` },
  ],
  [
    'private/withdraw',
    {
      ...fields,
      asset_name: 'USDC',
      amount_in_underlying: '25.5',
      max_fee_usd: '1',
      force_batch: false,
      recipient: null,
    },
    { asset: USDC },
    { amount_in_underlying: '25.6' },
  ],
  [
    'private/set_session_key',
    {
      nonce: fields.nonce,
      signature_expiry_sec: fields.signature_expiry_sec,
      wallet: wallet.address,
      public_session_key: sessionKey.address,
      expiry_sec: 1_900_000_300,
      protocol_scopes: ['trade:all'],
      offchain_scopes: ['account_info'],
      subaccount_ids: null,
    },
    {},
    { protocol_scopes: ['admin'] },
  ],
  [
    'private/update_whitelisted_recipients',
    {
      nonce: fields.nonce,
      signature_expiry_sec: fields.signature_expiry_sec,
      wallet: wallet.address,
      add: [`0x${'dd'.repeat(20)}`],
      remove: [],
    },
    {},
    { remove: [`0x${'dd'.repeat(20)}`] },
  ],
  [
    'private/request_vault_deposit',
    { ...fields, vault_subaccount_id: 500, deposit_spot_asset: USDC.address, amount: '1000' },
    {},
    { vault_subaccount_id: 501 },
  ],
  [
    'private/request_vault_withdraw',
    { ...fields, vault_subaccount_id: 500, shares_to_burn: '10' },
    {},
    { shares_to_burn: '11' },
  ],
  ['private/cancel_all_vault_requests', { ...fields, vault_subaccount_id: 500 }, {}, { vault_subaccount_id: 502 }],
  [
    'private/create_vault',
    {
      ...fields,
      manager_id: 1,
      deposit_spot_asset: USDC.address,
      initial_deposit: '10000',
      management_fee_bps: 100,
      performance_fee_bps: 2000,
      max_slippage_bps: 50,
      cooldown_sec: 10800,
      max_fee_usd: '1',
      initial_share_price_usd: '1',
      benchmark_asset: null,
    },
    {},
    { performance_fee_bps: 2500 },
  ],
  [
    'private/mint_vault_shares',
    { ...fields, share_price: '1.388', deposit_hash: `0x${'d1'.repeat(32)}`, request_id: 1 },
    {},
    { share_price: '1.4' },
  ],
  [
    'private/burn_vault_shares',
    { ...fields, share_price: '1.388', withdraw_hash: `0x${'d2'.repeat(32)}`, request_id: 2 },
    {},
    { withdraw_hash: `0x${'d3'.repeat(32)}` },
  ],
];

describe('sign → verify for every signed method (a session key signing for its wallet)', () => {
  it('the local deployment is derive-ts`s: chain 31337, its module addresses', () => {
    expect(local?.domain.chainId).toBe(31337);
    expect(local?.separator).toBe('0x8a010a34fc48f792a220b0b63077f0f8ba664f21340882d60fb34b4959397842');
    expect(local?.modules).toMatchObject({
      rfq: '0x9371352CCef6f5b36EfDFE90942fFE622Ab77F1D',
      transfer: '0x01259207A40925b794C8ac320456F7F6c8FE2636',
      withdrawal: '0x9d0E8f5b25384C7310CB8C6aE32C8fbeb645d083',
      setSessionKey: '0xe330CF64ff6EbF41699aad344Cb21d78db1D2bb6',
      vault: '0x2885c174ebf5524aED9c721d60c12b1537685186',
    });
  });

  it.each(cases)('%s', async (method, params, ctx, tamper) => {
    expect(moduleOfMethod(method)).not.toBeNull();
    const signed = await signAction(sessionKey, method, params as typeof fields, {
      ...ctx,
      owner: wallet.address,
      layout,
    });
    expect(signed.signer).toBe(sessionKey.address);
    const owned = { ...ctx, owner: wallet.address };
    expect(verifyAction(method, signed, { ...owned, deployments: deploymentsOf('local') })?.name).toBe(local!.name);
    expect(verifyAction(method, signed, { ...owned, deployments: deploymentsOf('testnet') })).toBeNull();
    expect(verifyAction(method, { ...signed, ...tamper }, { ...owned, deployments: [local!] })).toBeNull();
    expect(verifyAction(method, signed, { ...ctx, owner: sessionKey.address, deployments: [local!] })).toBeNull();
  });

  it('every method of the table is exercised above', () => {
    const covered = new Set(cases.map(([m]) => m));
    const missing = Object.entries(methodKinds).filter(
      ([m, k]) => !covered.has(m) && k !== 'positionTransfer' && !/_debug$|order_quote$/.test(m),
    );
    expect(missing).toEqual([]);
  });

  it('the wallet-level actions sign for the params` wallet, subaccount 0', async () => {
    const [, params] = cases.find(([m]) => m === 'private/set_session_key')!;
    const signed = await signAction(wallet, 'private/set_session_key', params as typeof fields, { layout });
    expect(
      verifyAction('private/set_session_key', signed, { owner: wallet.address, deployments: [local!] }),
    ).not.toBeNull();
  });
});

describe('private/transfer_positions: a quote and its execution, signed apart', () => {
  const half = (subaccount_id: number, direction: string, nonce: string) => ({
    subaccount_id,
    direction,
    legs,
    max_fee: '0',
    nonce,
    signature_expiry_sec: 1_900_000_000,
  });
  const params = {
    wallet: wallet.address,
    maker_params: half(10, 'buy', '111'),
    taker_params: half(20, 'sell', '222'),
  };
  const ctx = { instruments: { 'ETH-PERP': ETH, 'BTC-PERP': BTC } };

  it('both halves verify under the deployment they were made for; a changed leg price fails', async () => {
    const signed = await signTransferPositions(wallet, params, { ...ctx, layout });
    expect(signed.maker_params.signature).not.toBe(signed.taker_params.signature);
    const at = { ...ctx, owner: wallet.address };
    expect(verifyTransferPositions(signed, { ...at, deployments: deploymentsOf('local') })?.name).toBe(local!.name);
    expect(verifyTransferPositions(signed, { ...at, deployments: deploymentsOf('mainnet') })).toBeNull();
    const moved = { ...signed.taker_params, legs: [legs[0], { ...legs[1], price: '0.51' }] };
    expect(verifyTransferPositions({ ...signed, taker_params: moved }, { ...at, deployments: [local!] })).toBeNull();
  });

  it('signAction refuses it, naming the function that signs it', async () => {
    await expect(signAction(wallet, 'private/transfer_positions', { ...fields }, { layout })).rejects.toThrow(
      /signTransferPositions/,
    );
  });
});

describe("a verifier's instruments win over the assets a quote's legs claim", () => {
  it('a quote signed over another asset than the instrument has does not verify', async () => {
    const claimed = legs.map((l) => ({ ...l, base_asset_address: `0x${'ee'.repeat(20)}`, base_asset_sub_id: '0' }));
    const signed = await signAction(wallet, 'private/send_quote', { ...quote, legs: claimed }, { layout });
    const ctx = { owner: wallet.address, deployments: [local!] };
    expect(verifyAction('private/send_quote', signed, ctx)).not.toBeNull();
    const instruments = { 'ETH-PERP': ETH, 'BTC-PERP': BTC };
    expect(verifyAction('private/send_quote', signed, { ...ctx, instruments })).toBeNull();
  });
});

describe('what a module needs and the request does not carry is asked for by name', () => {
  it.each([
    ['private/send_quote', {}, 'legs[0].instrument_name'],
    ['private/transfer_spot', {}, 'asset_name'],
    ['private/withdraw', { asset: { address: USDC.address } }, 'asset_name'],
  ])('%s without its context', async (method, ctx, field) => {
    const [, params] = cases.find(([m]) => m === method)!;
    const err = await signAction(wallet, method, params as typeof fields, { ...ctx, layout }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ActionDataError);
    expect((err as ActionDataError).field).toBe(field);
  });

  it('a malformed value is refused naming its field', async () => {
    const [, params, ctx] = cases.find(([m]) => m === 'private/withdraw')!;
    await expect(
      signAction(
        wallet,
        'private/withdraw',
        { ...(params as typeof fields), amount_in_underlying: '1.1234567' },
        { ...ctx, layout },
      ),
    ).rejects.toThrow(/amount_in_underlying: has more fractional digits than the asset's 6/);
  });
});

describe("the spec's modules (x-action-signature) and this package's encoders agree", () => {
  const spec = actionSignatureTable!;

  it('every module an encoder signs for is in the spec, at the address derive-ts gives on every network', () => {
    const used = new Set(Object.values(actionKinds).map((k) => k.module));
    for (const module of used) {
      const address = spec.modules[module as keyof typeof spec.modules]?.address;
      expect(address, module).toMatch(/^0x[0-9a-fA-F]{40}$/);
      for (const d of actionDeployments.filter((x) => x.name.includes('derive-ts')))
        expect(d.modules[module], `${d.name} ${module}`).toBe(address);
    }
  });

  it.each([
    ['trade', 'private/order', 0],
    ['transfer', 'private/transfer_spot', 5],
    ['withdrawal', 'private/withdraw', 7],
  ] as const)('%s: the data has as many words as the spec lists', async (module, method, at) => {
    const [, params, ctx] = cases[at]!;
    expect(cases[at]![0]).toBe(method);
    const signed = await signAction(wallet, method, params as typeof fields, { ...ctx, layout });
    const words = spec.modules[module]!.data.length;
    const action = actionOf(method, signed, {
      ...ctx,
      owner: wallet.address,
      signer: wallet.address,
      deployment: local!,
    });
    expect((action.data.length - 2) / 64).toBe(words);
  });
});
