/**
 * A position transfer (private/transfer_positions) moves positions between two subaccounts of one wallet
 * as an RFQ trade with itself: maker_params is signed as a quote and taker_params as its execution, both
 * under the rfq module, each with its own nonce (derive-ts api/positionTransfers.ts). Both halves carry
 * the same legs; the taker's direction is the opposite of the maker's.
 */
import type { Signer } from 'ethers';
import type { ActionLayout } from './action-layout';
import { signAction, verifyAction, type ActionContext, type ActionFields, type VerifyingDeployment } from './action';

/** One half of a position transfer as sent: subaccount, direction, legs, max fee and the action fields. */
export type PositionTransferHalf = Record<string, unknown> & ActionFields & { subaccount_id: number | string };

/** The params of private/transfer_positions. */
export interface PositionTransferParams {
  wallet: string;
  maker_params: PositionTransferHalf;
  taker_params: PositionTransferHalf;
}

type Signed<P> = P & { signer: string; signature: string };

/** Sign both halves of a position transfer (a quote and its execution); the owner defaults to `wallet`. */
export async function signTransferPositions<P extends PositionTransferParams>(
  signer: Pick<Signer, 'getAddress' | 'signTypedData'>,
  params: P,
  ctx: ActionContext & { layout?: ActionLayout } = {},
): Promise<P & { maker_params: Signed<P['maker_params']>; taker_params: Signed<P['taker_params']> }> {
  const at = { ...ctx, owner: ctx.owner ?? params.wallet };
  const maker_params = await signAction(signer, 'private/send_quote', params.maker_params, at);
  const taker_params = await signAction(signer, 'private/execute_quote', params.taker_params, at);
  return { ...params, maker_params, taker_params };
}

/** The deployment under which both halves' signatures recover to their signers, or null when none does. */
export function verifyTransferPositions(
  params: {
    maker_params: Signed<PositionTransferHalf>;
    taker_params: Signed<PositionTransferHalf>;
  },
  ctx: ActionContext & { owner: string; deployments: readonly VerifyingDeployment[]; layout?: ActionLayout },
): VerifyingDeployment | null {
  const maker = verifyAction('private/send_quote', params.maker_params, ctx);
  if (maker === null) return null;
  return verifyAction('private/execute_quote', params.taker_params, { ...ctx, deployments: [maker] });
}
