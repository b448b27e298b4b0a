/**
 * The shared probe of the caller's own private channels: one logged-in connection on the first
 * subaccount's and the wallet's channels, with the order activity while it listens when order flow is
 * allowed (private pushes follow account activity).
 */
import type { Ctx } from '../context';
import { privateChannels, sampleAddresses } from './util';
import { collect, type Samples } from './samples';
import { orderActivity, type Activity } from './order-activity';

/** The private samples, the caller's subaccounts, and what the order activity did (null when not allowed). */
export type PrivateSamples = Samples & { subaccounts: number[]; activity: Activity | null };

const nothing = (unavailable: string, subaccounts: number[] = []): PrivateSamples => ({
  addresses: [],
  refused: [],
  subscribe: null,
  pushes: [],
  windowMs: 0,
  unavailable,
  subaccounts,
  activity: null,
});

/** The caller's own private channels (first subaccount and wallet), with order activity when allowed; once per run. */
export function privateSamples(ctx: Ctx) {
  return ctx.shared('private-samples', async (p): Promise<PrivateSamples> => {
    const key = p.options.key;
    if (!key) return nothing('needs a key');
    const conn = await p.connect('private-samples');
    const subaccounts = await p.mustLogin(conn, key);
    const sub = subaccounts[0];
    if (sub === undefined) return nothing('the login returned no subaccount', subaccounts);
    const addresses = privateChannels.flatMap((c) =>
      sampleAddresses(c, p.env, { subaccount_id: String(sub), wallet: key.address }),
    );
    const activity: Activity | null = p.options.allowOrderFlow
      ? { resting: null, cancel: null, crossing: null, orderId: null }
      : null;
    const during = activity ? () => orderActivity(p, conn, sub, activity) : undefined;
    const samples = await collect(p, addresses, () => false, 1500, conn, during);
    return { ...samples, subaccounts, activity };
  });
}
