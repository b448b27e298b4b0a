/**
 * public/send_quote_debug and public/execute_quote_debug: what the sandbox computes of a quote or an
 * execution signed as for private/send_quote and private/execute_quote (the rfq module's data, its hash,
 * the Action's hash and the typed-data digest under the first accepted deployment; an execution's legs
 * as encoded and their hash), so a client can compare its own signing. Nothing is verified or spent.
 */
import { AbiCoder, keccak256 } from 'ethers';
import { actionDigest, actionHash, actionOf, ActionDataError, normalizeAddress } from '@exchange-api/auth';
import type { HandlerParts } from '../handler-parts';
import { ONE } from '../fixed';
import { px, amt } from '../market/instrument';
import { assetsOf, legSide, readPricedLegs } from '../market/rfq-legs';
import type { QuoteParams } from '../market/rfq-quotes';
import type { Handler } from '../pipeline';
import { RpcFailure } from '../rpc';

const LEGS = '(address,uint256,uint256,int256)[]';
/** Fixed values (10^-12) as the 10^-18 words the module signs. */
const E18 = 10n ** 18n / ONE;

/** The debug handlers, keyed by method name. */
export function rfqDebugHandlers({ market, accounts, actions }: HandlerParts): Record<string, Handler> {
  const debug = (method: string, p: QuoteParams) => {
    const legs = readPricedLegs(market.rfq.parts.instruments, p.legs);
    const signer = normalizeAddress(p.signer);
    if (!signer) throw RpcFailure.of('INVALID_ADDRESS', `/signer: not an address (${String(p.signer).slice(0, 60)})`);
    const deployment = actions.deployments[0]!;
    let action;
    try {
      const owner = accounts.walletOf(p.subaccount_id) ?? signer;
      action = actionOf(method, p as never, { owner, signer, deployment, instruments: assetsOf(legs) });
    } catch (err) {
      if (err instanceof ActionDataError) throw RpcFailure.of('RPC_ORDER_REJECTED', err.message);
      throw err;
    }
    const hash = actionHash(action);
    const result = {
      action_hash: hash,
      encoded_data: action.data,
      encoded_data_hashed: keccak256(action.data),
      typed_data_hash: actionDigest(deployment.separator, hash),
    };
    return { result, legs };
  };
  return {
    'public/send_quote_debug': (_ctx, p: QuoteParams) => debug('private/send_quote', p).result,
    'public/execute_quote_debug': (_ctx, p: QuoteParams) => {
      const { result, legs } = debug('private/execute_quote', p);
      // The taker signs the maker's legs: its own side negated once more (derive-ts codecs/rfq.ts).
      const words = legs.map((l) => [
        l.inst.asset.address,
        BigInt(l.inst.asset.subId),
        px(l.inst, l.priceTicks) * E18,
        amt(l.inst, l.lots) * E18 * (legSide(l, p.direction) === 'buy' ? -1n : 1n),
      ]);
      const encoded = AbiCoder.defaultAbiCoder().encode([LEGS], [words]);
      return { ...result, encoded_legs: encoded, legs_hash: keccak256(encoded) };
    },
  };
}
