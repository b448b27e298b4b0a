/**
 * The request pipeline shared by both transports, in this order: the method exists, is served on this
 * transport and has a handler; login; tier 1 budget; params against the generated validator; the action
 * signature of a signed method (which spends its nonce); tier 2 bucket of order flow; the handler. Nothing is charged
 * or spent for a
 * request that could never be served, and a failed HTTP login is pre-authentication traffic: it spends
 * the caller's per-IP budget like any request before login.
 */
import { methodTable, type MethodEntry } from '@exchange-api/types';
import { validators, failuresOf, type ValidateFunction } from '@exchange-api/validators';
import { proofFromSources, LoginProofError } from '@exchange-api/auth';
import type { Accounts, Session } from './accounts';
import type { Connection } from './connection';
import type { Limits, Spent } from './limits';
import type { ActionFields, ActionVerifier } from './actions';
import { RpcFailure } from './rpc';

/** What a method handler sees. */
export interface CallContext {
  transport: 'ws' | 'http';
  ip: string;
  /** The WebSocket connection, or null over HTTP. */
  conn: Connection | null;
  /** The login this request acts under: the connection's, or the HTTP request's own. */
  session: Session | null;
  headers: unknown;
  /** The budget this request spent its tier-1 point on, for getRateLimits to report. */
  spent: Spent | null;
}

/** Serves one method: its params passed the validator, its login and signature hold. */
// Each handler declares the params record of its own method; the table holds them all, and the
// generated validator has checked the shape before a handler runs.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (ctx: CallContext, params: any) => unknown | Promise<unknown>;

/** The parts the pipeline drives. */
export interface PipelineParts {
  accounts: Accounts;
  limits: Limits;
  actions: ActionVerifier;
  /** The instrument type of a listed instrument (picks the tier-2 bucket), undefined for others. */
  instrumentType(name: string): string | undefined;
  handlers: Readonly<Record<string, Handler>>;
  /**
   * A fleet's routing (the `redis` option): the answer of the member owning the book a checked request
   * names, or null when this process serves it. Absent alone.
   */
  forward?: (ctx: CallContext, method: string, params: unknown) => Promise<unknown> | null;
}

/** One request through the pipeline; resolves with the result or throws an RpcFailure. */
export type Pipeline = (ctx: CallContext, method: string, params: unknown) => Promise<unknown>;

const methodsByName = new Map<string, MethodEntry>(methodTable.map((m) => [m.name, m]));
const paramsValidators = {
  ...(validators.params as Record<string, ValidateFunction>),
  ...(validators.assumedParams as Record<string, ValidateFunction>),
};

/**
 * The login proof from params and headers; a value of the wrong type is invalid params, named. Over
 * HTTP the headers win (`prefer`): a signed order's params carry its action `signature` (ccxt and
 * derive-ts post orders with the login in the headers).
 */
export function readProof(params: unknown, headers: unknown, prefer: 'params' | 'headers' = 'params') {
  try {
    return proofFromSources(params, headers, prefer);
  } catch (err) {
    if (err instanceof LoginProofError) throw RpcFailure.of('RPC_INVALID_PARAMS', err.message);
    throw err;
  }
}

function describeFailures(validate: ValidateFunction, data: unknown): string | null {
  const failures = failuresOf(validate, data);
  if (failures.length === 0) return null;
  return failures
    .slice(0, 5)
    .map((f) => `${f.pointer}: ${f.rule} (got ${f.value})`)
    .join('; ');
}

/** The method entry and handler of a request, or the -32601 that answers it. */
function servable(parts: PipelineParts, ctx: CallContext, name: string): { method: MethodEntry; handler: Handler } {
  const method = methodsByName.get(name);
  if (!method) throw RpcFailure.of('RPC_METHOD_NOT_FOUND', `unknown method ${JSON.stringify(name).slice(0, 80)}`);
  if (!(method.transports as readonly string[]).includes(ctx.transport))
    throw RpcFailure.of('RPC_METHOD_NOT_FOUND', `${name} is served over ${method.transports.join(' and ')} only`);
  const handler = Object.hasOwn(parts.handlers, name) ? parts.handlers[name] : undefined;
  if (!handler)
    throw RpcFailure.of('RPC_METHOD_NOT_FOUND', `${name} is in the spec but this sandbox does not serve it`);
  return { method, handler };
}

/** Establish the login a private method needs; an HTTP login that fails spends the per-IP budget first. */
async function authenticate(
  parts: PipelineParts,
  ctx: CallContext,
  method: MethodEntry,
  params: unknown,
): Promise<void> {
  if (ctx.transport === 'http') {
    try {
      ctx.session = parts.accounts.verify(readProof(params, ctx.headers, 'headers'), ctx.ip, true);
    } catch (err) {
      // Pre-authentication traffic is keyed by source IP: a failed login is not free.
      await parts.limits.consume(method, { wallet: null, ip: ctx.ip }, params);
      throw err;
    }
  } else if (!ctx.session) {
    throw RpcFailure.of('AUTH_REQUIRED', `${method.name} needs public/login first`);
  }
  const key = ctx.session.sessionKey;
  const refused = key && parts.accounts.keyRefusal(key, ctx.session.signer, ctx.ip);
  if (refused) throw RpcFailure.of('AUTH_ACCESS_DENIED', refused);
  const scope = method.orderFlow ? 'trade' : 'read';
  if (!parts.accounts.allows(ctx.session, scope))
    throw RpcFailure.of('AUTH_ACCESS_DENIED', `session key ${ctx.session.signer} lacks the ${scope} scope`);
}

/** The pipeline over these parts. */
export function createPipeline(parts: PipelineParts): Pipeline {
  return async (ctx, name, params) => {
    const { method, handler } = servable(parts, ctx, name);
    if (method.auth === 'login') await authenticate(parts, ctx, method, params);
    ctx.spent = await parts.limits.consume(method, { wallet: ctx.session?.wallet ?? null, ip: ctx.ip }, params);
    const validate = paramsValidators[name];
    if (validate) {
      const problem = describeFailures(validate, params);
      if (problem) throw RpcFailure.of('RPC_INVALID_PARAMS', problem);
    }
    const p = params as ActionFields & Record<string, unknown>;
    // The trade module's methods (private/order, private/replace) are verified here, for a subaccount; the
    // other signing modules (transfers, withdrawals, session keys, vaults) act for a wallet or name an asset,
    // and their handlers verify them with what they need (ActionOptions). The cancels carry no signature.
    // The instrument's bucket is taken before the signature is checked, as the windows are before it: a
    // request refused for its rate (-32000, with the wait) did nothing, so its nonce is not spent and the
    // same signed request may be sent again after the wait.
    if (method.orderFlow) {
      const instrument = typeof p.instrument_name === 'string' ? p.instrument_name : null;
      const type = instrument ? parts.instrumentType(instrument) : undefined;
      if (instrument && type) await parts.limits.takeToken(ctx.session!.wallet, instrument, type);
    }
    if (tradeSigned(method, ctx.session)) await parts.actions.verify(ctx.session, name, p, ctx.ip);
    return parts.forward?.(ctx, name, params) ?? handler(ctx, params);
  };
}

/**
 * Whether the pipeline verifies a method's action signature itself: the trade module's, for a logged-in
 * caller; not a debug method's, which reports what the signature recovers to instead (handlers/debug.ts).
 */
export function tradeSigned(method: MethodEntry, session: Session | null | undefined): session is Session {
  return method.actionModule === 'trade' && !method.name.endsWith('_debug') && session != null;
}
