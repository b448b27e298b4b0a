/** Login: wallet proofs, stale and foreign signatures, session keys, HTTP private calls. */
import { Wallet } from 'ethers';
import { assumptionTable, methodTable, type ErrorName } from '@exchange-api/types';
import { validators, cut } from '@exchange-api/validators';
import { freshnessWindow, loginHeaders, signLogin, type LoginProof } from '@exchange-api/auth';
import type { Check, Ctx, HttpExchange } from '../context';
import type { RpcResponse, WsConn } from '../connection';
import { S, codeObservation, errorOf, method, FINDING_MAX, validateInto } from './util';

/** Far outside any plausible freshness window (its length is not shown, so well beyond the spec's assumed one). */
const STALE_MS = Math.max(10 * 60_000, 20 * freshnessWindow().pastMs);

/**
 * A login with `proof` is refused. The refusal is evidence only from a server that accepts a valid login:
 * a fresh one follows on the same connection, and the check is inconclusive when that is refused too.
 */
async function refusedLogin(ctx: Ctx, proof: LoginProof, what: string, code: ErrorName): Promise<void> {
  const conn = await ctx.connect();
  const r = await ctx.login(conn, ctx.options.key!, { proof });
  if (!errorOf(r))
    return ctx.fail({
      pointer: '/result',
      rule: what,
      expected: 'an error',
      got: cut(r.result, FINDING_MAX),
      message: `the login was accepted: ${what}`,
    });
  ctx.observe(codeObservation('refused login', errorOf(r), code));
  const valid = await ctx.login(conn, ctx.options.key!);
  if (!conn.loggedIn)
    ctx.inconclusive(
      `a valid fresh login was refused too (${cut(valid.error ?? valid.result, 80)}), so this refusal proves nothing`,
    );
}

const getSubaccounts = methodTable.find((m) => m.id === 'privateGetSubaccounts')!;

/** The result of an HTTP JSON-RPC body (the http-responses assumption), or the body itself when it is not one. */
function httpResult(x: HttpExchange): { ok: boolean; result: unknown; error: unknown } {
  const body = x.json as Record<string, unknown> | undefined;
  const error = body && typeof body === 'object' && !Array.isArray(body) ? body.error : undefined;
  const result = body && typeof body === 'object' && !Array.isArray(body) && 'result' in body ? body.result : body;
  return { ok: x.status >= 200 && x.status < 300 && (error === undefined || error === null), result, error };
}

function observeHttp(ctx: Ctx, x: HttpExchange, what: string): void {
  const envelope =
    !!x.json &&
    typeof x.json === 'object' &&
    !Array.isArray(x.json) &&
    ('result' in (x.json as object) || 'error' in (x.json as object));
  ctx.observe({
    assumption: 'http-responses',
    text: `${what}: HTTP ${x.status}, ${envelope ? 'a JSON-RPC response body' : `body ${cut(x.json ?? x.text, 80)}`}`,
    conforms: envelope,
  });
}

async function httpAccepted(ctx: Ctx, x: HttpExchange, what: string): Promise<void> {
  observeHttp(ctx, x, what);
  const { ok, result, error } = httpResult(x);
  if (!ok)
    ctx.abort({
      pointer: '/error',
      rule: `${S.loginProof}: ${what}`,
      expected: 'HTTP 2xx with a result',
      got: `HTTP ${x.status} ${cut(error ?? x.text, FINDING_MAX)}`,
      message: `a valid private request was refused (${what})`,
    });
  validateInto(
    ctx,
    validators.results[getSubaccounts.name as 'private/get_subaccounts'],
    result,
    'get_subaccounts result',
    'GetSubaccountsResult',
    '/result',
  );
  ctx.observe({
    assumption: 'get-subaccounts-result',
    text: `result ${cut(result, 120)}`,
    conforms: !!result && typeof result === 'object' && !Array.isArray(result) && 'subaccount_ids' in result,
  });
}

/**
 * Where the method table lists WebSocket for private/get_subaccounts (an assumption: the document shows it
 * over HTTP), ask it on the logged-in connection and record what the server did as an observation.
 */
async function observeSubaccountsOverWs(ctx: Ctx, conn: WsConn): Promise<void> {
  const r = await ctx.call(conn, getSubaccounts.name, { wallet: ctx.options.key!.address });
  const valid = !errorOf(r) && validators.results[getSubaccounts.name as 'private/get_subaccounts'](r.result);
  const assumption = assumptionTable.find((a) => a.id === 'get-subaccounts-ws')?.id;
  ctx.observe({
    ...(assumption ? { assumption } : {}),
    text:
      `${getSubaccounts.name} over WebSocket after login: ` +
      (errorOf(r)
        ? `refused ${cut(r.error, 120)}`
        : `result ${cut(r.result, 120)}${valid ? '' : ' (not a GetSubaccountsResult)'}`),
    conforms: !!valid,
  });
}

/**
 * A refusal is evidence only from a server that serves the same request when it is valid: end the check
 * inconclusive unless a private request with fresh login headers from `signer` is served.
 */
async function servedWithLogin(ctx: Ctx, signer: Wallet, what: string): Promise<void> {
  const x = await ctx.http(getSubaccounts.httpPath!, { wallet: signer.address }, loginHeaders(await signLogin(signer)));
  const { ok, error } = httpResult(x);
  if (!ok)
    ctx.inconclusive(
      `${what} was not served either (HTTP ${x.status} ${cut(error ?? x.text, 80)}), so a refusal would prove nothing`,
    );
}

export const loginChecks: Check[] = [
  {
    id: 'login.wallet',
    title: 'A fresh wallet-signed login returns the integer subaccount ids',
    section: `${S.login}; ${S.loginProof}`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const conn = await ctx.connect();
      const r = await ctx.login(conn, ctx.options.key!);
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'a valid wallet login is accepted',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'a fresh wallet login was refused',
        });
      validateInto(
        ctx,
        validators.results[method('publicLogin') as 'public/login'],
        r.result,
        'login result',
        'PublicLoginResult',
        '/result',
      );
      if (getSubaccounts.transports.includes('ws')) await observeSubaccountsOverWs(ctx, conn);
    },
  },
  {
    id: 'login.stale-timestamp',
    title: 'A wallet login with a stale timestamp is refused',
    section: `${S.whoMaySign} (wallet: freshness enforced); ${S.loginProof} (rule 1)`,
    level: 'MUST',
    needs: ['key'],
    run: async (ctx) =>
      refusedLogin(
        ctx,
        await signLogin(ctx.options.key!, { nowMs: Date.now() - STALE_MS }),
        `timestamp ${STALE_MS / 60_000} minutes old`,
        'AUTH_TIMESTAMP_WINDOW',
      ),
  },
  {
    id: 'login.future-timestamp',
    title: 'A wallet login with a timestamp far in the future is refused',
    section: `${S.whoMaySign} (wallet: freshness enforced)`,
    level: 'MUST',
    needs: ['key'],
    run: async (ctx) =>
      refusedLogin(
        ctx,
        await signLogin(ctx.options.key!, { nowMs: Date.now() + STALE_MS }),
        `timestamp ${STALE_MS / 60_000} minutes ahead`,
        'AUTH_TIMESTAMP_WINDOW',
      ),
  },
  {
    id: 'login.wrong-signature',
    title: 'A login whose signature is over another message is refused',
    section: `${S.loginProof} (rule 1: the signed message is the timestamp)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const proof = await signLogin(ctx.options.key!);
      const other = await signLogin(ctx.options.key!, { nowMs: Number(proof.timestamp) - 1 });
      await refusedLogin(
        ctx,
        { ...proof, signature: other.signature },
        'signature over a different timestamp',
        'AUTH_INVALID_SIGNATURE',
      );
    },
  },
  {
    id: 'login.other-wallet-signature',
    title: 'A login signed by another wallet is refused',
    section: `${S.whoMaySign} (recovered signer equals wallet, or a registered session key)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const stranger = await signLogin(Wallet.createRandom(), { wallet: ctx.options.key!.address });
      await refusedLogin(ctx, stranger, "another wallet's signature", 'AUTH_INVALID_SIGNATURE');
    },
  },
  {
    id: 'login.headers-object',
    title: 'public/login reads the three values from the request headers object',
    section: `${S.loginProof} (rule 5: header or params, interchangeably); ${S.framing} (headers)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const conn = await ctx.connect();
      const r = await ctx.login(conn, ctx.options.key!, { viaHeaders: true });
      if (errorOf(r))
        ctx.fail({
          pointer: '/error',
          rule: 'the server reads each value from the header or the params',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: 'a login with the proof in headers was refused',
        });
      else
        validateInto(
          ctx,
          validators.results[method('publicLogin') as 'public/login'],
          r.result,
          'login result',
          'PublicLoginResult',
          '/result',
        );
    },
  },
  {
    id: 'login.numeric-timestamp',
    title: 'public/login accepts the timestamp as a JSON number',
    section:
      `${S.conventions} (decimal: input also accepts a JSON number); ${S.login}` +
      ` (timestamp: decimal string of milliseconds)`,
    level: 'MUST',
    needs: ['key'],
    async run(ctx) {
      const proof = await signLogin(ctx.options.key!);
      const conn = await ctx.connect();
      // The same proof with the timestamp as a number: the signed message is still its decimal string.
      const r = await ctx.call(conn, method('publicLogin'), { ...proof, timestamp: Number(proof.timestamp) });
      if (errorOf(r))
        ctx.abort({
          pointer: '/params/timestamp',
          rule: 'decimal inputs also accept a JSON number',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: `a login with timestamp ${proof.timestamp} as a JSON number was refused`,
        });
      validateInto(
        ctx,
        validators.results[method('publicLogin') as 'public/login'],
        r.result,
        'login result',
        'PublicLoginResult',
        '/result',
      );
    },
  },
  {
    id: 'login.session-key',
    title: 'A session key’s login is accepted without timestamp freshness',
    section: `${S.whoMaySign} (session key: freshness not enforced); ${S.loginProof} (rule 6)`,
    level: 'MUST',
    needs: ['session-key'],
    async run(ctx) {
      const { sessionKey, sessionWallet } = ctx.options;
      const conn = await ctx.connect();
      const r = await ctx.login(conn, sessionKey!, { wallet: sessionWallet!, nowMs: Date.now() - STALE_MS });
      if (errorOf(r))
        ctx.abort({
          pointer: '/error',
          rule: 'session keys are not held to freshness',
          expected: 'a result',
          got: cut(r.error, FINDING_MAX),
          message: `a session-key login with a ${STALE_MS / 60_000}-minute-old timestamp was refused`,
        });
      validateInto(
        ctx,
        validators.results[method('publicLogin') as 'public/login'],
        r.result,
        'login result',
        'PublicLoginResult',
        '/result',
      );
    },
  },
  {
    id: 'login.http-headers',
    title: 'An HTTP private request with the three login headers is served',
    section: `${S.http}; ${S.loginProof} (rule 4)`,
    level: 'MUST',
    needs: ['key', 'http'],
    async run(ctx) {
      const key = ctx.options.key!;
      const x = await ctx.http(getSubaccounts.httpPath!, { wallet: key.address }, loginHeaders(await signLogin(key)));
      await httpAccepted(ctx, x, 'the three headers');
    },
  },
  {
    id: 'login.http-params',
    title: 'An HTTP private request with the login values in params instead of headers is served',
    section: `${S.loginProof} (rule 5: header or params, interchangeably)`,
    level: 'MUST',
    needs: ['key', 'http'],
    async run(ctx) {
      const proof = await signLogin(ctx.options.key!);
      const x = await ctx.http(getSubaccounts.httpPath!, { ...proof }, {}, { pace: false });
      await httpAccepted(ctx, x, 'values in params');
    },
  },
  {
    id: 'login.http-without-headers',
    title: 'An HTTP private request without login values is refused',
    section: `${S.http} (private requests carry the three login headers)`,
    level: 'MUST',
    needs: ['http'],
    async run(ctx) {
      // A fresh random wallet when no key is given: servers that open accounts on login serve it.
      const signer = ctx.options.key ?? (Wallet.createRandom() as unknown as Wallet);
      await servedWithLogin(ctx, signer, 'the same request with fresh login headers');
      const x = await ctx.http(getSubaccounts.httpPath!, { wallet: signer.address });
      observeHttp(ctx, x, 'no login values');
      const { ok, result, error } = httpResult(x);
      if (ok)
        ctx.fail({
          pointer: '/result',
          rule: 'private requests carry the login values',
          expected: 'an error',
          got: `HTTP ${x.status} ${cut(result, FINDING_MAX)}`,
          message: 'a private HTTP request without login values was served',
        });
      else
        ctx.observe(
          codeObservation('HTTP request without login', (error as { code?: unknown }) ?? null, 'AUTH_REQUIRED'),
        );
    },
  },
  {
    id: 'login.http-stale',
    title: 'An HTTP private request with a stale wallet timestamp is refused',
    section: `${S.whoMaySign} (wallet: freshness enforced); ${S.loginProof} (rule 4)`,
    level: 'MUST',
    needs: ['key', 'http'],
    async run(ctx) {
      const key = ctx.options.key!;
      await servedWithLogin(ctx, key, 'the same request with a fresh timestamp');
      const x = await ctx.http(
        getSubaccounts.httpPath!,
        { wallet: key.address },
        loginHeaders(await signLogin(key, { nowMs: Date.now() - STALE_MS })),
      );
      const { ok, result } = httpResult(x);
      if (ok)
        ctx.fail({
          pointer: '/result',
          rule: 'wallet timestamps are held to freshness',
          expected: 'an error',
          got: `HTTP ${x.status} ${cut(result, FINDING_MAX)}`,
          message: 'a stale HTTP login was accepted',
        });
    },
  },
];

export type { RpcResponse };
