/**
 * The control plane: HTTP on the sandbox's own port, served only when the sandbox was started with
 * `control: true` (`--control`). Tests use it to push payloads, inject faults and move the clock. It
 * sees only the small ControlPlane interface below, never the server's internals, and every input is
 * bounded: a value out of range is refused with 400 and a message naming the key and the range.
 */
import { isObject } from './options-fields';
import type { FaultCounts } from './faults';

/** A connection as `GET /control/connections` lists it. */
export interface ConnectionInfo {
  id: number;
  ip: string;
  wallet: string | null;
  subaccounts: number[];
  subscriptions: string[];
}

/** The sandbox's state as `GET /control/status` reports it. */
export interface StatusInfo {
  nowMs: number;
  connections: number;
  /** Failures survived: timer steps that threw, server and socket errors (see faults.ts). */
  errors: FaultCounts;
}

/** What the control plane may do to a running sandbox. `id` picks one connection; omitted, all of them. */
export interface ControlPlane {
  connections(): ConnectionInfo[];
  status(): StatusInfo;
  /** Terminate sockets abruptly; returns how many. */
  drop(id?: number): number;
  /** Hold every outgoing frame for ms (0 resets); returns how many connections. */
  delay(ms: number, id?: number): number;
  /** Send a text frame as is; returns how many got it. */
  sendRaw(text: string, id?: number): number;
  /** Push data, unvalidated, to every subscriber of the exact address; returns how many got it. */
  push(address: string, data: unknown): number;
  /** A schema-valid payload for a filled-in address, or null when it matches no channel. */
  generate(address: string): unknown;
  /** Move the sandbox clock forward by ms; resolves with the new time. */
  advance(ms: number): Promise<number>;
  /** Put an instrument's mark at a price (orders it crosses fill, trigger orders see it); or why not. */
  mark(instrument: string, price: number): { mark: string } | { error: string };
  /**
   * The chain's part of a deposit: credit a wallet's subaccount (its first when none is named), or the one
   * a registered deposit address names; `pending`, it waits for confirmation on the clock first; or why not.
   */
  deposit(to: DepositTarget, asset: string, amount: string, pending: boolean): unknown;
}

/** Where a control-plane deposit goes: a wallet (and subaccount), or a registered deposit address. */
export type DepositTarget = { wallet: string; subaccount?: number } | { depositAddress: string };

/** A control answer: HTTP status and JSON body. */
export interface ControlReply {
  status: number;
  body: unknown;
}

/** The largest delay the control plane injects: a minute. */
export const MAX_DELAY_MS = 60_000;
/** The largest single clock advance: a year (the clock itself refuses to pass year 9999, Clock.MAX_MS). */
export const MAX_ADVANCE_MS = 366 * 24 * 3600 * 1000;
/** The longest channel address and garbage text the control plane accepts. */
const MAX_ADDRESS_CHARS = 1024;
const MAX_TEXT_CHARS = 1024 * 1024;

const ACTIONS = 'POST push|drop|delay|garbage|advance|mark|deposit, GET connections|status';

class ControlError extends Error {}

type Body = Record<string, unknown>;

function onlyKeys(body: Body, allowed: string[]): void {
  for (const k of Object.keys(body))
    if (!allowed.includes(k))
      throw new ControlError(
        `unknown key ${JSON.stringify(k).slice(0, 60)} (allowed: ${allowed.join(', ') || 'none'})`,
      );
}

function optionalId(body: Body): number | undefined {
  const id = body.connectionId;
  if (id === undefined) return undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1)
    throw new ControlError(`connectionId must be a positive integer (got ${JSON.stringify(id).slice(0, 40)})`);
  return id;
}

function boundedMs(body: Body, max: number): number {
  const v = body.ms;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max)
    throw new ControlError(`ms must be a number from 0 to ${max} (got ${JSON.stringify(v ?? null).slice(0, 40)})`);
  return v;
}

function boundedString(body: Body, key: string, max: number, what: string): string {
  const v = body[key];
  if (typeof v !== 'string') throw new ControlError(`${key} must be a string (${what})`);
  if (v.length > max) throw new ControlError(`${key} must be at most ${max} characters (got ${v.length})`);
  return v;
}

function parseBody(text: string): Body {
  let body: unknown = {};
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ControlError('body must be JSON');
    }
  }
  if (!isObject(body)) throw new ControlError('body must be a JSON object');
  return body;
}

function push(plane: ControlPlane, body: Body): ControlReply {
  onlyKeys(body, ['channel', 'data', 'generate']);
  const channel = boundedString(body, 'channel', MAX_ADDRESS_CHARS, 'a filled-in address');
  if (body.generate !== undefined && typeof body.generate !== 'boolean')
    throw new ControlError('generate must be a boolean');
  let data = body.data;
  if (body.generate === true) {
    data = plane.generate(channel);
    if (data === null) throw new ControlError(`${channel} matches no channel, so nothing can be generated for it`);
  } else if (!('data' in body)) throw new ControlError('give data, or generate: true');
  return { status: 200, body: { delivered: plane.push(channel, data) } };
}

/** The control plane's deposit: to a wallet (and subaccount) or a registered deposit address, pending or not. */
function deposit(plane: ControlPlane, body: Body): ControlReply {
  onlyKeys(body, ['wallet', 'deposit_address', 'asset', 'amount', 'subaccount_id', 'pending']);
  const asset = boundedString(body, 'asset', 40, 'a spot asset name, e.g. USDC');
  const amount = boundedString(body, 'amount', 40, 'a decimal, e.g. "100.5"');
  const sub = body.subaccount_id;
  if (sub !== undefined && (typeof sub !== 'number' || !Number.isSafeInteger(sub) || sub < 1))
    throw new ControlError(`subaccount_id must be a positive integer (got ${JSON.stringify(sub).slice(0, 40)})`);
  if (body.pending !== undefined && typeof body.pending !== 'boolean')
    throw new ControlError('pending must be a boolean');
  if ((body.wallet === undefined) === (body.deposit_address === undefined))
    throw new ControlError('give wallet or deposit_address, one of them');
  const to: DepositTarget =
    body.wallet !== undefined
      ? { wallet: boundedString(body, 'wallet', 42, 'the wallet address'), subaccount: sub as number | undefined }
      : { depositAddress: boundedString(body, 'deposit_address', 42, 'a registered deposit address') };
  if ('depositAddress' in to && sub !== undefined)
    throw new ControlError('subaccount_id goes with wallet: a deposit address names its subaccount');
  const done = plane.deposit(to, asset, amount, body.pending === true || 'depositAddress' in to);
  if (isObject(done) && typeof done.error === 'string') throw new ControlError(done.error);
  return { status: 200, body: done };
}

async function act(plane: ControlPlane, action: string, body: Body): Promise<ControlReply> {
  switch (action) {
    case 'push':
      return push(plane, body);
    case 'drop':
      onlyKeys(body, ['connectionId']);
      return { status: 200, body: { dropped: plane.drop(optionalId(body)) } };
    case 'delay':
      onlyKeys(body, ['ms', 'connectionId']);
      plane.delay(boundedMs(body, MAX_DELAY_MS), optionalId(body));
      return { status: 200, body: {} };
    case 'garbage': {
      onlyKeys(body, ['text', 'connectionId']);
      const text =
        body.text === undefined
          ? 'garbage}{ not json'
          : boundedString(body, 'text', MAX_TEXT_CHARS, 'the frame to send');
      return { status: 200, body: { sent: plane.sendRaw(text, optionalId(body)) } };
    }
    case 'advance': {
      onlyKeys(body, ['ms']);
      const ms = boundedMs(body, MAX_ADVANCE_MS);
      try {
        return { status: 200, body: { nowMs: await plane.advance(ms) } };
      } catch (err) {
        // The clock's own bound (it never passes year 9999).
        if (err instanceof RangeError) throw new ControlError(err.message);
        throw err;
      }
    }
    case 'mark': {
      onlyKeys(body, ['instrument', 'price']);
      const instrument = boundedString(body, 'instrument', MAX_ADDRESS_CHARS, 'an instrument name');
      const price = body.price;
      if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0)
        throw new ControlError(`price must be a number above 0 (got ${JSON.stringify(price ?? null).slice(0, 40)})`);
      const moved = plane.mark(instrument, price);
      if ('error' in moved) throw new ControlError(moved.error);
      return { status: 200, body: moved };
    }
    case 'deposit':
      return deposit(plane, body);
    default:
      return { status: 404, body: { error: `no control action ${action.slice(0, 60)} (${ACTIONS})` } };
  }
}

/** Serve one control request. A refused input is 400 with `{error}` naming it; an unknown path 404. */
export async function handleControl(
  plane: ControlPlane,
  method: string,
  path: string,
  text: string,
): Promise<ControlReply> {
  const action = path.slice('/control/'.length);
  if (method === 'GET' && action === 'connections') return { status: 200, body: plane.connections() };
  if (method === 'GET' && action === 'status') return { status: 200, body: plane.status() };
  if (method !== 'POST')
    return { status: 404, body: { error: `no control action ${method} ${path.slice(0, 80)} (${ACTIONS})` } };
  try {
    return await act(plane, action, parseBody(text));
  } catch (err) {
    if (err instanceof ControlError) return { status: 400, body: { error: err.message } };
    throw err;
  }
}
