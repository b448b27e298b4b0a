/**
 * Whose budget a request draws on: one budget per wallet across its connections and session keys; the IP's before
 * login.
 */
import type { Check, Ctx } from '../../context';
import type { WsConn } from '../../connection';
import { S } from '../util';
import { inOneWindow, limits, missingBudget, turned } from './budget';
import { budgetConnection } from './probes';

/** Requests made per measurement. */
const K = 3;

/** Requests on `spender` show on `observer`: both are connections of one wallet, so they share one budget. */
async function sharedAcross(ctx: Ctx, spender: WsConn, observer: WsConn, what: string): Promise<void> {
  await inOneWindow(ctx, what, async () => {
    const a = (await limits(ctx, observer)).remaining_non_matching;
    for (let i = 0; i < K; i++) await limits(ctx, spender);
    const b = (await limits(ctx, observer)).remaining_non_matching;
    if (!a || !b) missingBudget(ctx);
    if (turned(a, b)) return 'turned';
    const grew = b.consumedPoints - a.consumedPoints;
    ctx.note(`${what}: ${K} requests on ${spender.label} showed as +${grew} on ${observer.label}`);
    if (grew < K + 1)
      ctx.fail({
        pointer: '/result/remaining_non_matching/consumedPoints',
        rule: 'one budget per wallet, shared by all its connections and session keys',
        expected: `+${K + 1} (${K} requests on ${spender.label} and this reading)`,
        got: `+${grew}`,
        message: `${what} do not share one budget: ${K} requests on one showed as +${grew} on the other`,
      });
    else if (grew > K + 1)
      ctx.observe({ text: `${what}: +${grew - K - 1} more than this check sent (other clients of the wallet)` });
    return 'done';
  });
}

/** Pre-authentication requests on `anon` show on the IP's budget and not on the logged-in `wallet` connection's. */
async function keyedByIp(ctx: Ctx, anon: WsConn, wallet: WsConn): Promise<void> {
  await inOneWindow(ctx, `${K} requests before login`, async () => {
    const ip0 = (await limits(ctx, anon)).remaining_non_matching;
    const w0 = (await limits(ctx, wallet)).remaining_non_matching;
    for (let i = 0; i < K; i++) await limits(ctx, anon);
    const w1 = (await limits(ctx, wallet)).remaining_non_matching;
    const ip1 = (await limits(ctx, anon)).remaining_non_matching;
    if (!ip0 || !w0 || !w1 || !ip1) missingBudget(ctx);
    if (turned(ip0, ip1) || turned(w0, w1)) return 'turned';
    const walletGrew = w1.consumedPoints - w0.consumedPoints;
    const ipGrew = ip1.consumedPoints - ip0.consumedPoints;
    ctx.note(`wallet budget +${walletGrew}, IP budget +${ipGrew} around ${K} requests before login`);
    if (walletGrew !== 1)
      ctx.fail({
        pointer: '/result/remaining_non_matching/consumedPoints',
        rule: 'pre-authentication traffic is keyed by source IP (not by a wallet)',
        expected: `the wallet budget +1 (its own getRateLimits only)`,
        got: `+${walletGrew} around ${K} requests on a connection not logged in`,
        message: `requests before login counted against the wallet's budget (+${walletGrew})`,
      });
    if (ipGrew < K + 1)
      ctx.fail({
        pointer: '/result/remaining_non_matching/consumedPoints',
        rule: 'pre-authentication traffic is keyed by source IP',
        expected: `the IP budget +${K + 1} at least (${K} requests and the reading)`,
        got: `+${ipGrew}`,
        message: `requests before login did not count against the per-IP budget (+${ipGrew})`,
      });
    else if (ipGrew === K + 3)
      ctx.fail({
        pointer: '/result/remaining_non_matching/consumedPoints',
        rule: 'authenticated traffic is keyed by wallet',
        expected: `the IP budget +${K + 1}`,
        got: `+${ipGrew}: the 2 logged-in readings counted too`,
        message: 'requests after login counted against the per-IP budget as well',
      });
    else if (ipGrew > K + 1)
      ctx.observe({
        text: `the IP budget grew by ${ipGrew - K - 1} more than this check sent: other clients on this IP`,
      });
    return 'done';
  });
}

/** The checks of budget keying, in run order. */
export const keyingChecks: Check[] = [
  {
    id: 'ratelimit.wallet-shared',
    title: 'All connections and session keys of one wallet share one budget',
    section: `${S.tier1} (all connections and session keys of one wallet share one budget)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      // Two connections of one wallet (a fresh one when the server lets it log in).
      const { conn: one, signer, keyed } = await budgetConnection(ctx, { needWallet: true });
      ctx.note(`budget under test: ${keyed}`);
      const two = await ctx.connect();
      await ctx.mustLogin(two, signer!);
      await sharedAcross(ctx, one, two, 'two connections of one wallet');
      await one.close();
      await two.close();
      // A session key of the caller's wallet: only when the key given is that wallet's.
      const o = ctx.options;
      if (
        !o.sessionKey ||
        !o.sessionWallet ||
        !o.key ||
        o.sessionWallet.toLowerCase() !== o.key.address.toLowerCase()
      ) {
        ctx.observe({
          text:
            'session keys sharing the wallet budget: not checked (needs --session-key ' +
            'with --wallet set to the --key wallet)',
        });
        return;
      }
      const byWallet = await ctx.connect();
      await ctx.mustLogin(byWallet, o.key);
      const byKey = await ctx.connect();
      await ctx.mustLogin(byKey, o.sessionKey, { wallet: o.sessionWallet });
      await sharedAcross(ctx, byKey, byWallet, 'a session-key connection and a wallet-signed one');
    },
  },
  {
    id: 'ratelimit.keyed-by-ip-then-wallet',
    title: 'Traffic before login counts against the per-IP budget, not the wallet’s',
    section: `${S.tier1} (authenticated traffic is keyed by wallet; public pre-authentication traffic by source IP)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const { conn: wallet, keyed } = await budgetConnection(ctx, { needWallet: true });
      ctx.note(`wallet budget under test: ${keyed}`);
      const anon = await ctx.connect();
      await keyedByIp(ctx, anon, wallet);
    },
  },
];
