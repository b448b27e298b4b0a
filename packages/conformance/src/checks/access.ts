/** Access: private channels need login and belong to the caller's own subaccounts and wallet. */
import { Wallet } from 'ethers';
import type { ErrorName } from '@exchange-api/types';
import { cut } from '@exchange-api/validators';
import type { Check, Ctx } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import {
  S,
  codeObservation,
  errorOf,
  method,
  privateChannels,
  publicChannels,
  refused,
  sampleAddresses,
  FINDING_MAX,
} from './util';

/**
 * Subscribing to `addresses` is refused and nothing is pushed on them. The refusal is evidence only from a
 * server that serves the `allowed` addresses on the same connection (asked next); when it refuses those
 * too, the check is inconclusive.
 */
async function expectRefused(
  ctx: Ctx,
  conn: WsConn,
  addresses: string[],
  rule: string,
  code: ErrorName,
  allowed: string[],
): Promise<RpcResponse> {
  const r = await ctx.call(conn, method('subscribe'), { channels: addresses });
  for (const a of addresses) {
    if (!refused(r, a))
      ctx.fail({
        pointer: `/result/status/${a}`,
        rule,
        expected: 'refused',
        got: cut((r.result as { status?: Record<string, unknown> })?.status?.[a] ?? r.result, FINDING_MAX),
        message: `${a} was accepted`,
      });
  }
  const e = errorOf(r);
  if (e) ctx.observe(codeObservation('refused private subscription', e, code));
  else ctx.observe({ assumption: 'subscription-result', text: `refused through the result: ${cut(r.result, 200)}` });
  // Served anyway? Anything pushed on these addresses is a leak.
  await ctx.sleep(400);
  for (const p of conn
    .pushes(0)
    .filter((x) => x.channel && addresses.includes(x.channel))
    .slice(0, 2)) {
    ctx.fail({
      pointer: '/params/channel',
      rule,
      expected: 'no push',
      got: `a push on ${p.channel}`,
      message: `${p.channel} was pushed although refused`,
    });
  }
  if (ctx.findings.length > 0) return r;
  if (allowed.length === 0)
    ctx.inconclusive(
      'no channel known that this connection may subscribe to, to show that the refusal is about access',
    );
  const ok = await ctx.call(conn, method('subscribe'), { channels: allowed });
  const alsoRefused = allowed.filter((a) => refused(ok, a));
  if (alsoRefused.length > 0)
    ctx.inconclusive(
      `${alsoRefused.join(', ')}, which this connection may subscribe to, was refused ` +
        `too (${cut(ok.error ?? ok.result, 80)}), so the refusal proves nothing about access`,
    );
  return r;
}

export const accessChecks: Check[] = [
  {
    id: 'access.private-before-login',
    title: 'Private channels are refused before login',
    section: `${S.furtherRules} (rule 2: private channels require an authenticated connection)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const wallet = ctx.options.key?.address ?? Wallet.createRandom().address;
      const addresses = privateChannels.flatMap((c) => sampleAddresses(c, ctx.env, { subaccount_id: '1', wallet }));
      const conn = await ctx.connect();
      const open = publicChannels.flatMap((c) => sampleAddresses(c, ctx.env)).slice(0, 1);
      await expectRefused(
        ctx,
        conn,
        addresses,
        'private channels require an authenticated connection',
        'AUTH_REQUIRED',
        open,
      );
    },
  },
  {
    id: 'access.own-channels',
    title: 'After login, the caller’s own private channels are accepted',
    section: `${S.furtherRules} (rule 2)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const key = ctx.options.key!;
      const conn = await ctx.connect();
      const [sub] = await ctx.mustLogin(conn, key);
      if (sub === undefined) ctx.skip('the login returned no subaccount');
      const addresses = privateChannels.flatMap((c) =>
        sampleAddresses(c, ctx.env, { subaccount_id: String(sub), wallet: key.address }),
      );
      const r = await ctx.call(conn, method('subscribe'), { channels: addresses });
      for (const a of addresses)
        if (refused(r, a))
          ctx.fail({
            pointer: `/result/status/${a}`,
            rule: 'subaccount channels apply to the caller’s own subaccounts',
            expected: 'ok',
            got: cut((r.result as { status?: Record<string, unknown> })?.status?.[a] ?? r.error, FINDING_MAX),
            message: `own channel ${a} was refused`,
          });
    },
  },
  {
    id: 'access.other-subaccount',
    title: 'Another wallet’s subaccount channels are refused',
    section: `${S.furtherRules} (rule 2: subaccount channels apply to the caller’s own subaccounts)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const conn = await ctx.connect();
      const own = await ctx.mustLogin(conn, ctx.options.key!);
      // Prefer a subaccount that really exists: one of a second wallet's (servers that create accounts on login).
      const other = await ctx.connect();
      const theirs = await ctx.login(other, Wallet.createRandom() as unknown as Wallet);
      await other.close();
      const candidate = (other.loggedIn ?? []).find((id) => !own.includes(id)) ?? Math.max(0, ...own) + 1000;
      if (!other.loggedIn)
        ctx.note(
          `a second random wallet could not log in (${cut(theirs.error, FINDING_MAX)}` +
            `); using subaccount ${candidate}, which is not the caller's`,
        );
      const ofSubaccount = privateChannels.filter((c) => c.parameters.some((p) => p.name === 'subaccount_id'));
      const addresses = ofSubaccount.flatMap((c) => sampleAddresses(c, ctx.env, { subaccount_id: String(candidate) }));
      const mine =
        own[0] === undefined
          ? []
          : ofSubaccount.flatMap((c) => sampleAddresses(c, ctx.env, { subaccount_id: String(own[0]) })).slice(0, 1);
      await expectRefused(
        ctx,
        conn,
        addresses,
        'subaccount channels apply to the caller’s own subaccounts',
        'AUTH_ACCESS_DENIED',
        mine,
      );
    },
  },
  {
    id: 'access.other-wallet',
    title: 'Another wallet’s wallet channel is refused',
    section: `${S.furtherRules} (rule 2: the wallet channel applies to the caller’s wallet)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const conn = await ctx.connect();
      await ctx.mustLogin(conn, ctx.options.key!);
      const stranger = Wallet.createRandom().address;
      const ofWallet = privateChannels.filter((c) => c.parameters.some((p) => p.name === 'wallet'));
      const addresses = ofWallet.flatMap((c) => sampleAddresses(c, ctx.env, { wallet: stranger }));
      const mine = ofWallet
        .flatMap((c) => sampleAddresses(c, ctx.env, { wallet: ctx.options.key!.address }))
        .slice(0, 1);
      await expectRefused(
        ctx,
        conn,
        addresses,
        'the wallet channel applies to the caller’s wallet',
        'AUTH_ACCESS_DENIED',
        mine,
      );
    },
  },
];
