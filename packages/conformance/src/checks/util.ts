/** Helpers the checks share: section names of the interface document, validation to findings, addresses. */
import {
  channelTable,
  errorByName,
  fillAddress,
  errorOfKind,
  methodTable,
  type ChannelEntry,
  type ErrorName,
} from '@exchange-api/types';
import { failuresOf, type ValidateFunction } from '@exchange-api/validators';

/**
 * How many characters of a value a finding keeps: a whole error object or frame, its `data` included
 * (the reports show it escaped and wrapped), up to the size the transcript keeps of one frame.
 */
export const FINDING_MAX = 4000;
import type { Ctx, Env } from '../context';
import type { RpcResponse } from '../connection';

/** Section headings of the interface document (exchange-api-v3.md), as cited by the checks. */
export const S = {
  conventions: 'Resources and their fields › Conventions',
  enumerations: 'Resources and their fields › Enumerations',
  orderbook: 'Resources and their fields › OrderbookPayload',
  rpcError: 'Resources and their fields › RPCError',
  framing: 'Endpoints › WebSocket framing',
  login: 'Endpoints › public/login (WebSocket)',
  http: 'Endpoints › HTTP requests',
  getRateLimits: 'Endpoints › public/getRateLimits',
  loginProof: 'Authentication › Login proof',
  whoMaySign: 'Authentication › Who may sign',
  furtherRules: 'Authentication › Further rules',
  events: 'Events',
  errors: 'Errors',
  tier1: 'Limits › Tier 1: request budget',
  tier2: 'Limits › Tier 2: per-instrument order rate',
  reference: 'Limits › Reference values',
  tickers: 'Resources and their fields › Ticker-related records',
  trade: 'Resources and their fields › Trade',
  states: 'States and transitions',
} as const;

/** A method's wire name from the generated table (so a renamed method in the spec follows through). */
export function method(id: (typeof methodTable)[number]['id']): string {
  return methodTable.find((m) => m.id === id)!.name;
}

/**
 * An observation text and verdict for an error a server gave where the spec assumes a code (the entry named `name`).
 */
export function codeObservation(
  what: string,
  error: { code?: unknown } | null,
  name: ErrorName,
): { assumption: string; text: string; conforms: boolean } {
  const entry = errorByName(name);
  const got = error ? JSON.stringify(error.code) : 'no error';
  return {
    assumption: 'error-codes',
    text: `${what}: code ${got} (assumed ${entry.code} ${entry.message})`,
    conforms: error?.code === entry.code,
  };
}

/** The documented rate-limit error (the entry carrying the retry hint). */
export const rateLimitError = errorOfKind('rate-limit');
/** The documented connection-limit error (the entry carrying the text-frame prefix). */
export const connectionLimitError = errorOfKind('connection-limit');

/** Record one finding per validation failure; returns how many there were. */
export function validateInto(
  ctx: Ctx,
  validate: ValidateFunction,
  value: unknown,
  what: string,
  rule: string,
  base = '',
): number {
  const failures = failuresOf(validate, value);
  for (const f of failures.slice(0, 10)) {
    ctx.fail({
      pointer: `${base}${f.pointer === '/' ? '' : f.pointer}` || '/',
      rule: `${rule}: ${f.rule}`,
      expected: f.message,
      got: f.value,
      message: `${what}: ${f.pointer} ${f.message}`,
    });
  }
  return failures.length;
}

/** The error object of a response, when it has one. */
export function errorOf(r: RpcResponse): { code?: unknown; message?: unknown; data?: unknown } | null {
  return r.error !== undefined && r.error !== null && typeof r.error === 'object' ? r.error : null;
}

/** Whether a subscribe/unsubscribe response refused the address (an error, or a status other than ok). */
export function refused(r: RpcResponse, address: string): boolean {
  if (errorOf(r)) return true;
  const status = (r.result as { status?: Record<string, unknown> } | undefined)?.status;
  if (status && typeof status === 'object' && address in status) return status[address] !== 'ok';
  const current = (r.result as { current_subscriptions?: unknown } | undefined)?.current_subscriptions;
  if (Array.isArray(current)) return !current.includes(address);
  return false;
}

/** The value to use for a channel parameter that has no enumeration, from what the server told us. */
function freeValue(name: string, env: Env, extra: Record<string, string>): string | undefined {
  if (name in extra) return extra[name];
  if (name === 'instrument_name') return env.perp?.instrument_name;
  if (name === 'currency') return env.currency;
  return undefined;
}

/**
 * Filled-in addresses of a channel to sample: free parameters from the environment (or `extra`),
 * enumerated ones at their first and last values (the instrument type of the known perp, when listed;
 * a batch status at Settled, the state every settled trade reaches).
 * Empty when a free parameter has no known value.
 */
export function sampleAddresses(channel: ChannelEntry, env: Env, extra: Record<string, string> = {}): string[] {
  let combos: Record<string, string>[] = [{}];
  for (const p of channel.parameters) {
    let values: string[];
    if (p.enum) {
      const type = env.perp?.instrument_type;
      const e = p.enum as readonly string[];
      // Every trade's batch ends Settled when all is well; the other states may pass too fast to be seen.
      if (p.name === 'batch_status' && e.includes('Settled')) values = ['Settled'];
      else
        values =
          p.name === 'instrument_type' && type && e.includes(type) ? [type] : [...new Set([e[0]!, e[e.length - 1]!])];
    } else {
      const v = freeValue(p.name, env, extra);
      if (v === undefined) return [];
      values = [v];
    }
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [p.name]: v })));
  }
  return combos.map((c) => fillAddress(channel.address, c));
}

/** Public channels of the table. */
export const publicChannels = channelTable.filter((c) => c.access === 'public');
/** Private channels of the table. */
export const privateChannels = channelTable.filter((c) => c.access === 'private');
