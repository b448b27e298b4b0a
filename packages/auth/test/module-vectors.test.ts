/**
 * Every module's data, action hash, digest and signature against the clients' own vectors, byte for byte.
 * The values (keys, inputs, expected bytes, hashes, signatures) are copied as facts from:
 * - derive-ts 3.0.13 test/unit/fixtures/golden-vectors.json (read by its signing, trade-codec and
 *   transfer-codecs tests): envelope, trade, transfer and withdrawal cases, signed under its separator 0x8735…;
 * - derive-ts 3.0.13 test/unit/rfq-codec, session-key-codec, vault-codec and transfer-codecs tests: the word
 *   layouts they assert for quotes, executions, session keys, vault actions and external transfers;
 * - ccxt 4.5.84 js/src/derive.js createOrder: the venue's private/order_debug answer it records (the
 *   encoded data, its hash, the action hash and the typed-data hash the server computed).
 * Our encoders read the request params as the venue has them (snake_case, decimals as strings).
 */
import { describe, expect, it } from 'vitest';
import { AbiCoder, getAddress, keccak256, parseUnits, SigningKey, Wallet } from 'ethers';
import {
  actionDigest,
  actionHash,
  actionOf,
  PROTOCOL_SCOPE_CODES,
  rfqExecuteData,
  rfqQuoteData,
  sessionKeyData,
  transferData,
  externalTransferData,
  vaultBurnSharesData,
  vaultCancelData,
  vaultCreateData,
  vaultDepositData,
  vaultMintSharesData,
  vaultWithdrawData,
  verifyAction,
  withdrawalData,
  whitelistedRecipientsData,
  type Action,
  type VerifyingDeployment,
} from '../src/index';

// derive-ts golden-vectors.json: the well-known first Hardhat key, owner and signer of every case.
const GOLDEN = {
  separator: '0x87359b672801fef20dd7ce3e82c082a14efa1246a4ab1d344d213e54a61cc72b',
  key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
};
// derive-ts src/signing/modules.ts: the module addresses, the same on every network.
const MODULES = {
  trade: '0xB8D20c2B7a1Ad2EE33Bc50eF10876eD3035b5e7b',
  transfer: '0x01259207A40925b794C8ac320456F7F6c8FE2636',
  withdrawal: '0x9d0E8f5b25384C7310CB8C6aE32C8fbeb645d083',
};
const golden: VerifyingDeployment = { name: 'derive-ts golden vectors', separator: GOLDEN.separator, modules: MODULES };
const ASSET = '0x0000000000000000000000000000000000000C0D';

/** The signature the golden key makes of a digest (RFC 6979, deterministic: equal bytes or a bug). */
const signDigest = (digest: string) => new SigningKey(GOLDEN.key).sign(digest).serialized;

describe('derive-ts golden vectors: the Action envelope over raw data', () => {
  it.each([
    {
      name: 'envelope-minimal',
      action: { subaccountId: 1, nonce: '1720000000000000001', expiry: 1900000000, data: '0xdeadbeef' },
      actionHash: '0xc8ad78753078431628a58714684c0369bd8ec321d525f5b42631f44d6aee765e',
      digest: '0x14e35b3cf89bd381ab7983caac4317ee186fbecbece0154398af4b00f3c7ca95',
      signature:
        '0x12c6c2b5f01254e3bb71b810adf8c6e1ac54358c79bc0cbd6be9da0e47a33a95' +
        '17c583e67c4f5fef63027766278c94ef5defd5b08eefa547cff2607d70156788' +
        '1b',
    },
    {
      name: 'envelope-large',
      action: { subaccountId: 999999, nonce: '1720000000123456789', expiry: 2000000000, data: `0x${'11'.repeat(64)}` },
      actionHash: '0x58da760f9b8d9920a8225eb05277a9fd867b116d3065ec7a9940a16c04f86414',
      digest: '0x978073493a8ffc3cd0a3f7c5fa0b0a0a191ac387edae49145c55d0430ba302a6',
      signature:
        '0x851efcc1546234e4494d65f8f0fe7e76cc1a0b56a406257dcf74e56ad5723c2d' +
        '65572e16cd7caabd5c3ec397495f2f1dfd9fa2a8a395d4656fa58567b566b258' +
        '1c',
    },
  ])('$name', (c) => {
    const action: Action = { ...c.action, module: MODULES.trade, owner: GOLDEN.address, signer: GOLDEN.address };
    expect(actionHash(action)).toBe(c.actionHash);
    expect(actionDigest(GOLDEN.separator, c.actionHash)).toBe(c.digest);
    expect(signDigest(c.digest)).toBe(c.signature);
  });
});

describe('derive-ts golden vectors: each module from the request params, to the signature', () => {
  const cases = [
    {
      name: 'trade (private/order)',
      method: 'private/order',
      params: {
        subaccount_id: 1,
        nonce: '1720000000000000002',
        signature_expiry_sec: 1900000000,
        instrument_name: 'ETH-PERP',
        direction: 'buy',
        limit_price: '1500.5',
        amount: '2.5',
        max_fee: '100',
      },
      ctx: { instrument: { base_asset_address: ASSET, base_asset_sub_id: '42' } },
      data:
        '0x0000000000000000000000000000000000000000000000000000000000000c0d' +
        '000000000000000000000000000000000000000000000000000000000000002a' +
        '000000000000000000000000000000000000000000000051579ee002a1a20000' +
        '00000000000000000000000000000000000000000000000022b1c8c1227a0000' +
        '0000000000000000000000000000000000000000000000056bc75e2d63100000' +
        '0000000000000000000000000000000000000000000000000000000000000001' +
        '0000000000000000000000000000000000000000000000000000000000000001',
      actionHash: '0x25d3db7cc2792b21b64bf96b2752572ecbca8fedc5a9abe6b2918732e08df3bb',
      digest: '0x5ecb84fbc9b38c8bad9421c80c6c6e14fb9b325c9496a2ddbd827745e17b4c7f',
      signature:
        '0x863450f1b1981715a13d01cf090fb08a58067d0014b4a98d6df0feb919ba6996' +
        '57706cd4d588fb9c7d41d989cf238e77168aa133bb625e0a2c31591969151bc2' +
        '1b',
    },
    {
      name: 'transfer (private/transfer_spot)',
      method: 'private/transfer_spot',
      params: {
        subaccount_id: 1,
        nonce: '1720000000000000003',
        signature_expiry_sec: 1900000000,
        to_subaccount_id: 2,
        new_subaccount_manager: 0,
        asset_name: 'USDC',
        sub_id: 0,
        amount: '10.5',
        max_fee_usd: '1000',
      },
      ctx: { asset: { address: ASSET } },
      data:
        '0x0000000000000000000000000000000000000000000000000000000000000002' +
        '0000000000000000000000000000000000000000000000000000000000000000' +
        '0000000000000000000000000000000000000000000000000000000000000c0d' +
        '0000000000000000000000000000000000000000000000000000000000000000' +
        '00000000000000000000000000000000000000000000000091b77e5e5d9a0000' +
        '00000000000000000000000000000000000000000000003635c9adc5dea00000',
      actionHash: '0xc37e717b0cf835cd4329648c5daa3a0116ffb65ceb854427314d953b9deb4670',
      digest: '0x7771cb0abf9433abf94726c6da935a0ea86a6aa3021c50e9adc49fc67d590655',
      signature:
        '0xeaf5a64d506082916552224b88a64fa46b737008ab251fd1aa616dd305362d0b' +
        '64bb0e122a73307565d07eda91ed46bd0785ad5880e7f488c99a969870bedef6' +
        '1b',
    },
    {
      name: 'withdrawal (private/withdraw)',
      method: 'private/withdraw',
      params: {
        subaccount_id: 1,
        nonce: '1720000000000000004',
        signature_expiry_sec: 1900000000,
        asset_name: 'USDC',
        amount_in_underlying: '123.456789',
        max_fee_usd: '2.5',
        recipient: GOLDEN.address,
        force_batch: false,
      },
      ctx: { asset: { address: ASSET, decimals: 6 } },
      data:
        '0x0000000000000000000000000000000000000000000000000000000000000c0d' +
        '00000000000000000000000000000000000000000000000022b1c8c1227a0000' +
        '000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266' +
        '00000000000000000000000000000000000000000000000000000000075bcd15' +
        '0000000000000000000000000000000000000000000000000000000000000000',
      actionHash: '0x51473b8c9756233140b753031d37814588bcfb5980ae2522ba7037838206d30d',
      digest: '0xe0ae1e52c27062e698680a18050d79a19364eb077031c6eefc568f6bf3911de0',
      signature:
        '0x9a11e75d68a91e32bcc0d559e2f5a13379cbb19fa19a7ebab3c8bc4e90b1fdde' +
        '77f4c0224b7e70ed165cacfdb5f8bf2c0ac17137021663047e6ed2b702807e63' +
        '1b',
    },
  ];

  it.each(cases)('$name: data, action hash, digest, signature, and the verifier accepts it', (c) => {
    const who = { owner: GOLDEN.address, signer: GOLDEN.address };
    const action = actionOf(c.method, c.params, { ...c.ctx, ...who, deployment: golden });
    expect(action.data).toBe(c.data);
    expect(actionHash(action)).toBe(c.actionHash);
    expect(actionDigest(GOLDEN.separator, c.actionHash)).toBe(c.digest);
    expect(signDigest(c.digest)).toBe(c.signature);
    const sent = { ...c.params, signer: GOLDEN.address, signature: c.signature };
    expect(verifyAction(c.method, sent, { ...c.ctx, owner: GOLDEN.address, deployments: [golden] })).toBe(golden);
  });

  it('the withdrawal amount is in the asset decimals, the fee at 10^18 (transfer-codecs.test.ts)', () => {
    const data = withdrawalData(
      { amount_in_underlying: '1.5', max_fee_usd: '2', recipient: GOLDEN.address, force_batch: true },
      { address: ASSET, decimals: 6 },
    );
    expect(BigInt(`0x${data.slice(2 + 3 * 64, 2 + 4 * 64)}`)).toBe(1_500_000n);
    expect(BigInt(`0x${data.slice(2 + 64, 2 + 2 * 64)}`)).toBe(parseUnits('2', 18));
    expect(data.slice(-2)).toBe('01');
  });
});

/** A word of `n` as 64 hex digits (two's complement for negatives), as derive-ts's tests build them. */
const word = (n: bigint | number) => BigInt.asUintN(256, BigInt(n)).toString(16).padStart(64, '0');
const addressWord = (a: string) => a.slice(2).toLowerCase().padStart(64, '0');
const E18 = 10n ** 18n;

describe('derive-ts rfq-codec.test.ts: quotes and executions', () => {
  const ETH = `0x${'ab'.repeat(20)}`;
  const BTC = `0x${'cd'.repeat(20)}`;
  // Deliberately unsorted: BTC-PERP must sort ahead of ETH-PERP.
  const legs = [
    {
      instrument_name: 'ETH-PERP',
      base_asset_address: ETH,
      base_asset_sub_id: '42',
      price: '2',
      amount: '3',
      direction: 'buy',
    },
    {
      instrument_name: 'BTC-PERP',
      base_asset_address: BTC,
      base_asset_sub_id: '7',
      price: '0.5',
      amount: '4',
      direction: 'sell',
    },
  ];

  it('a buy quote: [0x20][maxFee][0x40][N], legs sorted, amounts signed by leg side × quote side', () => {
    expect(rfqQuoteData({ max_fee: '1.5', direction: 'buy', legs })).toBe(
      '0x' +
        [word(0x20), word((15n * E18) / 10n), word(0x40), word(2)].join('') +
        [addressWord(BTC), word(7), word(E18 / 2n), word(-4n * E18)].join('') +
        [addressWord(ETH), word(42), word(2n * E18), word(3n * E18)].join(''),
    );
  });

  it('a sell quote flips every amount', () => {
    const data = rfqQuoteData({ max_fee: '1.5', direction: 'sell', legs });
    expect(data.slice(2 + 7 * 64, 2 + 8 * 64)).toBe(word(4n * E18));
    expect(data.slice(2 + 11 * 64, 2 + 12 * 64)).toBe(word(-3n * E18));
  });

  it("the taker's execution: keccak256 of the maker's leg tuples, then the taker's own max fee", () => {
    const makerLegTuples = [
      [getAddress(BTC), 7n, E18 / 2n, -4n * E18],
      [getAddress(ETH), 42n, 2n * E18, 3n * E18],
    ];
    const orderHash = keccak256(
      AbiCoder.defaultAbiCoder().encode(['(address,uint256,uint256,int256)[]'], [makerLegTuples]),
    );
    expect(rfqExecuteData({ max_fee: '100', direction: 'sell', legs })).toBe(`${orderHash}${word(100n * E18)}`);
    // The maker's max fee is not in the taker's commitment: derivable from the maker's bytes.
    const maker = rfqQuoteData({ max_fee: '1.5', direction: 'buy', legs });
    expect(keccak256(`0x${word(0x20)}${maker.slice(2 + 3 * 64)}`)).toBe(orderHash);
  });

  it('refuses a leg amount that is not above zero and a negative price, naming the leg', () => {
    expect(() => rfqQuoteData({ max_fee: '0', direction: 'buy', legs: [{ ...legs[0]!, amount: '0' }] })).toThrow(
      /legs\[0\]\.amount/,
    );
    expect(() => rfqQuoteData({ max_fee: '0', direction: 'buy', legs: [{ ...legs[0]!, price: '-2' }] })).toThrow(
      /legs\[0\]\.price/,
    );
  });
});

describe('derive-ts session-key-codec.test.ts: set_session_key', () => {
  it('address, expiry, the scope codes and the subaccount ids, as dynamic arrays', () => {
    const data = sessionKeyData({
      public_session_key: `0x${'42'.repeat(20)}`,
      expiry_sec: 1_700_000_000,
      protocol_scopes: ['trade:orderbook:perp', 'transfer:existing_subaccount', 'set_session_key'],
      subaccount_ids: [1, 7, '18446744073709551615'],
    });
    expect(data).toBe(
      '0x' +
        [word(0x4242424242424242424242424242424242424242n), word(0x6553f100), word(0x80), word(0x100)].join('') +
        [word(3), word(5), word(12), word(15), word(3), word(1), word(7), word(0xffffffffffffffffn)].join(''),
    );
  });

  it('no scopes and no subaccounts: the six-word form; admin is code 0; an unknown scope is refused by name', () => {
    const empty = sessionKeyData({ public_session_key: `0x${'00'.repeat(19)}01`, expiry_sec: 1, subaccount_ids: null });
    expect(empty).toBe(`0x${[word(1), word(1), word(0x80), word(0xa0), word(0), word(0)].join('')}`);
    expect(PROTOCOL_SCOPE_CODES.admin).toBe(0);
    expect(PROTOCOL_SCOPE_CODES['vault:user_cancel']).toBe(22);
    expect(() =>
      sessionKeyData({ public_session_key: `0x${'42'.repeat(20)}`, expiry_sec: 1, protocol_scopes: ['read'] }),
    ).toThrow(/protocol_scopes\[0\]/);
  });
});

describe('derive-ts vault-codec.test.ts: the six vault actions, told apart by their first word', () => {
  const SPOT = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB';
  const HASH = `0x${'d1'.repeat(32)}`;

  it('deposit (kind 1): kind, vault subaccount, deposit asset, amount at 10^18', () => {
    expect(vaultDepositData({ vault_subaccount_id: 42, deposit_spot_asset: SPOT, amount: '1.5' })).toBe(
      `0x${word(1)}${word(42)}${addressWord(SPOT)}${word(parseUnits('1.5', 18))}`,
    );
  });

  it('withdraw (kind 2) of the smallest share, cancel (kind 3) of a u64-max vault', () => {
    expect(vaultWithdrawData({ vault_subaccount_id: 7, shares_to_burn: '0.000000000001' })).toBe(
      `0x${word(2)}${word(7)}${word(1_000_000)}`,
    );
    expect(vaultCancelData({ vault_subaccount_id: '18446744073709551615' })).toBe(
      `0x${word(3)}${word(2n ** 64n - 1n)}`,
    );
  });

  it('create (kind 0): twelve words, bps and cooldown as integers, the benchmark and its flag', () => {
    const params = {
      manager_id: 7,
      deposit_spot_asset: `0x${'aa'.repeat(20)}`,
      initial_deposit: '10000',
      management_fee_bps: 100,
      performance_fee_bps: 2000,
      max_slippage_bps: 50,
      cooldown_sec: 10800,
      max_fee_usd: '1',
      initial_share_price_usd: '1',
      benchmark_asset: `0x${'bb'.repeat(20)}`,
    };
    const head = [word(0), word(7), addressWord(`0x${'aa'.repeat(20)}`), word(parseUnits('10000', 18))];
    const rest = [word(100), word(2000), word(50), word(10800), word(E18), word(E18)];
    expect(vaultCreateData(params)).toBe(
      `0x${[...head, ...rest, addressWord(`0x${'bb'.repeat(20)}`), word(1)].join('')}`,
    );
    expect(vaultCreateData({ ...params, benchmark_asset: null }).slice(2 + 10 * 64)).toBe(word(0) + word(0));
  });

  it('mint (kind 4) and burn (kind 5): kind, share price at 10^18, the intent hash', () => {
    expect(vaultMintSharesData({ share_price: '1.388', deposit_hash: HASH })).toBe(
      `0x${word(4)}${word(parseUnits('1.388', 18))}${'d1'.repeat(32)}`,
    );
    const max = ((2n ** 128n - 1n) / 1_000_000n) * 1_000_000n;
    const zero = `0x${'00'.repeat(32)}`;
    const maxText = `${max / E18}.${(max % E18).toString().padStart(18, '0')}`;
    expect(vaultBurnSharesData({ share_price: maxText, withdraw_hash: zero })).toBe(
      `0x${word(5)}${word(max)}${'00'.repeat(32)}`,
    );
    expect(() => vaultMintSharesData({ share_price: '1', deposit_hash: '0xd1d1' })).toThrow(/deposit_hash/);
  });
});

describe('derive-ts transfer-codecs.test.ts: transfers within a wallet and to another', () => {
  const params = { to_subaccount_id: 42, new_subaccount_manager: 7, sub_id: 12345, amount: '1.5', max_fee_usd: '1' };
  const asset = `0x${'aa'.repeat(20)}`;

  it('six words in wire order', () => {
    expect(transferData(params, asset)).toBe(
      `0x${[word(42), word(7), addressWord(asset), word(12345), word(parseUnits('1.5', 18)), word(E18)].join('')}`,
    );
  });

  it('the external transfer is the transfer and the recipient word', () => {
    const data = externalTransferData({ ...params, recipient_address: `0x${'bb'.repeat(20)}` }, asset);
    expect(data).toBe(transferData(params, asset) + addressWord(`0x${'bb'.repeat(20)}`));
  });

  it('refuses a zero or negative amount, and 13 fractional digits', () => {
    expect(() => transferData({ ...params, amount: '0' }, asset)).toThrow(/amount: must be above zero/);
    expect(() => transferData({ ...params, max_fee_usd: '-1' }, asset)).toThrow(/max_fee_usd: must not be negative/);
    expect(() => transferData({ ...params, amount: '0.0000000000001' }, asset)).toThrow(/12 fractional digits/);
  });
});

describe('whitelisted recipients (derive-ts codecs/whitelistedRecipients.ts; its tests have no vector)', () => {
  it('abi.encode(address[] add, address[] remove)', () => {
    const a = `0x${'aa'.repeat(20)}`;
    expect(whitelistedRecipientsData({ add: [a], remove: [] })).toBe(
      `0x${[word(0x40), word(0x80), word(1), addressWord(a), word(0)].join('')}`,
    );
  });
});

describe("ccxt 4.5.84 derive.js: the venue's private/order_debug answer it records", () => {
  it('our trade data, its hash, the action hash and the typed-data hash equal the server-computed ones', () => {
    const ccxtSandbox = { name: 'ccxt sandbox', modules: { trade: '0x87F2863866D85E3192a35A73b388BD625D83f2be' } };
    const owner = '0x108b9aF9279a525b8A8AeAbE7AC2bA925Bc50075';
    const params = {
      subaccount_id: 130837,
      nonce: 1736923517552,
      signature_expiry_sec: 86400,
      direction: 'buy',
      limit_price: '10000',
      amount: '0.001',
      max_fee: '0',
    };
    const instrument = { base_asset_address: '0xAFB6Bb95cd70D5367e2C39e9dbEb422B9815339D', base_asset_sub_id: 0 };
    const action = actionOf('private/order_debug', params, {
      instrument,
      owner,
      signer: owner,
      deployment: ccxtSandbox,
    });
    expect(action.data).toBe(
      '0x000000000000000000000000afb6bb95cd70d5367e2c39e9dbeb422b9815339d' +
        '0000000000000000000000000000000000000000000000000000000000000000' +
        '00000000000000000000000000000000000000000000021e19e0c9bab2400000' +
        '00000000000000000000000000000000000000000000000000038d7ea4c68000' +
        '0000000000000000000000000000000000000000000000000000000000000000' +
        '000000000000000000000000000000000000000000000000000000000001ff15' +
        '0000000000000000000000000000000000000000000000000000000000000001',
    );
    expect(keccak256(action.data)).toBe('0xe88fb416bc54dba2d288988f1a82fee40fd792ed555b3471b5f6b4b810d279b4');
    expect(actionHash(action)).toBe('0x273a0befb3751fa991edc7ed73582456c3b50ae964d458c8f472e932fb6a0069');
    const sandboxSeparator = '0x9bcf4dc06df5d8bf23af818d5716491b995020f377d3b7b64c29ed14e3dd1105';
    expect(actionDigest(sandboxSeparator, actionHash(action))).toBe(
      '0x123e2d2f3d5b2473b4e260f51c6459d6bf904e5db8f042a3ea63be8d55329ce9',
    );
  });
});

it('the golden key is the address every golden case names', () => {
  expect(new Wallet(GOLDEN.key).address).toBe(GOLDEN.address);
});
