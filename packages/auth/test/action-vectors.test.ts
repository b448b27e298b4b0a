/**
 * The action signature against what the public clients sign: the test vector ccxt 4.5.84 makes for an
 * order (recomputed from its derive.js: hashOrderMessage, its hard-coded separators and trade modules),
 * and the separators derive-ts 3.0.13 and derive-py compute or hard-code. Data, action hash, digest
 * and signature must match byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { keccak256, toUtf8Bytes, TypedDataEncoder, Wallet } from 'ethers';
import {
  actionDeployments,
  actionDigest,
  actionHash,
  actionOf,
  defaultActionLayout,
  deploymentsOf,
  domainSeparator,
  recoverActionSigner,
  signAction,
  tradeData,
  verifyAction,
  type ActionDeployment,
} from '../src/index';

// The well-known first Hardhat key, owner and signer both (research vectors).
const key = new Wallet('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const instrument = { base_asset_address: '0xDBa83C0C654DB1cd914FA2710bA743e925B53086', base_asset_sub_id: '0' };
// ccxt's createOrder body: the nonce is milliseconds as a JSON number, the decimals strings.
const order = {
  instrument_name: 'BTC-PERP',
  direction: 'buy',
  order_type: 'limit',
  nonce: 1738914910057,
  amount: '0.01',
  limit_price: '10000',
  max_fee: '219',
  subaccount_id: 130837,
  signature_expiry_sec: 1746690910,
};
const DATA =
  '0x000000000000000000000000dba83c0c654db1cd914fa2710ba743e925b53086' +
  '0000000000000000000000000000000000000000000000000000000000000000' +
  '00000000000000000000000000000000000000000000021e19e0c9bab2400000' +
  '000000000000000000000000000000000000000000000000002386f26fc10000' +
  '00000000000000000000000000000000000000000000000bdf3c4bb0328c0000' +
  '000000000000000000000000000000000000000000000000000000000001ff15' +
  '0000000000000000000000000000000000000000000000000000000000000001';

const byName = (name: string): ActionDeployment => actionDeployments.find((d) => d.name === name)!;

const cases = [
  {
    name: 'mainnet (ccxt)',
    separator: '0xd96e5f90797da7ec8dc4e276260c7f3f87fedf68775fbe1ef116e996fc60441b',
    module: '0xB8D20c2B7a1Ad2EE33Bc50eF10876eD3035b5e7b',
    actionHash: '0x706234932cd70ee322f657293f8d959b181bd1c2c6ee9e8fbaa4bcde1bf25025',
    digest: '0x3c7bd362c868478f55a40bce9d2347854780674e800d8d4477ecedeb6e2cd873',
    signature:
      '0xb28afcc1e3a1009637e40542639b3eaa2313cca5e4854d68a16a242c2ca37e36' +
      '75b1c96718079323836dc47943fc2e57b99d6d4f84e0fc11998be4995a483eef1b',
  },
  {
    name: 'testnet (ccxt in sandbox mode)',
    separator: '0x9bcf4dc06df5d8bf23af818d5716491b995020f377d3b7b64c29ed14e3dd1105',
    module: '0x87F2863866D85E3192a35A73b388BD625D83f2be',
    actionHash: '0x121b1d731ebb17adcccbdbb07382a87dcb31b6f66b5dc3fd43ccc234d234904f',
    digest: '0x99615dc4e15cf66be1e5e8f65c4a42f5f5aab6d280f034053621227ec9025c62',
    signature:
      '0x7d6655050e6be9b82bf2114c8c00de7c8301da731e4b8a1b5219e5520f367974' +
      '579757fe4237e373aef48548874ee43ffe03da2d84ca713383f92da4600f12641b',
  },
];

describe("the action signature matches ccxt's and derive-ts's, byte for byte", () => {
  it('the Action type hashes to the typehash every client hard-codes', () => {
    const encoded = TypedDataEncoder.from(defaultActionLayout.types).encodeType('Action');
    expect(encoded).toBe(
      'Action(uint256 subaccountId,uint256 nonce,address module,bytes data,uint256 ' +
        'expiry,address owner,address signer)',
    );
    expect(keccak256(toUtf8Bytes(encoded))).toBe('0x4d7a9f27c403ff9c0f19bce61d76d82f9aa29f8d6d4b0c5474607d9770d1af17');
  });

  it('the trade data: asset, sub id 0, 10000e18, 0.01e18, 219e18, recipient 130837, is bid', () => {
    expect(tradeData(order, instrument)).toBe(DATA);
  });

  it.each(cases)('$name: action hash, digest and signature', async (c) => {
    const deployment = byName(c.name);
    expect(deployment.separator).toBe(c.separator);
    expect(deployment.modules.trade).toBe(c.module);
    const action = actionOf('private/order', order, {
      owner: key.address,
      signer: key.address,
      instrument,
      deployment,
    });
    expect(action.data).toBe(DATA);
    expect(actionHash(action)).toBe(c.actionHash);
    expect(actionDigest(deployment.separator, actionHash(action))).toBe(c.digest);
    const layout = { ...defaultActionLayout, deployment };
    const signed = await signAction(key, 'private/order', order, { instrument, layout });
    expect(signed.signature).toBe(c.signature);
    expect(recoverActionSigner(action, c.signature, c.separator)).toBe(key.address);
  });

  it('a server with the testnet deployments accepts ccxt in sandbox mode and refuses ccxt on mainnet', () => {
    const ctx = { owner: key.address, instrument, deployments: deploymentsOf('testnet') };
    const [mainnet, sandbox] = cases;
    const of = (signature: string) => ({ ...order, signer: key.address, signature });
    expect(verifyAction('private/order', of(sandbox!.signature), ctx)?.name).toBe('testnet (ccxt in sandbox mode)');
    expect(verifyAction('private/order', of(mainnet!.signature), ctx)).toBeNull();
  });

  it.each([
    ['testnet (derive-ts, derive-py)', '0x24d674cd5f2b9d564691c51e9d88f649b99246a2244dd74ce27b96578d773e85'],
    ['mainnet (derive-ts, derive-py)', '0xda616dfabb88681b08e1592820a41d55ddc62d68de110e327ae99d734506fe19'],
    ['testnet (ccxt in sandbox mode)', '0x9bcf4dc06df5d8bf23af818d5716491b995020f377d3b7b64c29ed14e3dd1105'],
    ['mainnet (ccxt)', '0xd96e5f90797da7ec8dc4e276260c7f3f87fedf68775fbe1ef116e996fc60441b'],
  ])('%s: the separator the clients hard-code is the hash of its domain', (name, separator) => {
    expect(domainSeparator(byName(name).domain)).toBe(separator);
    expect(byName(name).separator).toBe(separator);
  });

  it("the spec's own domain is derive-ts's and derive-py's testnet", () => {
    expect(defaultActionLayout.deployment.separator).toBe(byName('testnet (derive-ts, derive-py)').separator);
    expect(defaultActionLayout.deployment.modules.trade).toBe(byName('testnet (derive-ts, derive-py)').modules.trade);
  });
});
