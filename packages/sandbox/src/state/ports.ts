/**
 * The ports of the sandbox's state: what the parts that enforce the document's rules (limits,
 * admission, action signatures, the market, the transports) need kept, as small interfaces. Each has
 * a memory adapter (state/memory.ts, admission.ts, actions.ts: one process) and a Redis adapter
 * (redis/*: a fleet); which set a sandbox runs on is chosen once, where it is assembled (server.ts), as a
 * SandboxState (state/sandbox-state.ts).
 */
import type { BucketLimit, WindowLimit } from '../options';
import type { Nonces } from '../actions';
import type { Resting } from '../market/instrument';

/** A budget as public/getRateLimits reports it (the answers rate-limiter-flexible gives). */
export interface Budget {
  remainingPoints: number;
  msBeforeNext: number;
  consumedPoints: number;
  isFirstInDuration: boolean;
}

/** A window's count as it stands: what rate-limiter-flexible reports for it. */
export interface WindowCount {
  consumedPoints: number;
  msBeforeNext: number;
  isFirstInDuration: boolean;
}

/** Fixed-window budgets (tier 1). */
export interface WindowStore {
  /** Spend one point; the count as it stands after (over the limit when consumedPoints > points). */
  spend(limit: WindowLimit, key: string): Promise<WindowCount>;
  /** The count without spending, or null when no window is open. */
  count(limit: WindowLimit, key: string): Promise<WindowCount | null>;
  /** The clock moved forward by ms (the control plane): windows that elapse in it are reset. */
  advance(ms: number): Promise<void>;
  /** The sandbox is closing: drop what is this process's alone. */
  close(): Promise<void>;
}

/** Per (wallet, instrument) token buckets (tier 2). */
export interface BucketStore {
  /** Take one token at `nowMs`; the wait in ms until one is back when there is none, else null. */
  take(limit: BucketLimit, key: string, nowMs: number): number | null | Promise<number | null>;
  /** The sandbox is closing. */
  close(): void;
}

/** Concurrent WebSocket connections per IP. */
export interface SlotStore {
  /** Take a slot of `ip` for connection `id` if it has room; false when the IP is at its limit. */
  tryTake(ip: string, id: number): boolean | Promise<boolean>;
  /** Give back the slot connection `id` of `ip` held. */
  release(ip: string, id: number): void;
  /** remaining_connections of getRateLimits, as connection `id` from `ip` sees it. */
  report(ip: string, id: number): Budget | Promise<Budget>;
  /** Forget every slot of this process (the sandbox is closing). */
  clear(): void | Promise<void>;
}

/** Used (signer, nonce) pairs; the nonce given is the canonical key (actions.ts). */
export interface NonceStore extends Nonces {
  /** Forget pairs whose signatures expired before `nowMs` (a store that expires them itself does nothing). */
  forgetExpired(nowMs: number): void;
}

/** What moving a book between members does to this member's market. */
export interface BookKeeper {
  restingIn(instrument: string): Resting[];
  restore(r: Resting): void;
  dropBook(instrument: string): void;
  /** The trigger and TWAP orders waiting on an instrument, as kept (order id, JSON text). */
  waitingIn(instrument: string): Array<[string, string]>;
  /** One of them as kept, or undefined once it no longer waits. */
  waitingOf(orderId: string): string | undefined;
  /** Take one back (its book moved here); false when it is not one. */
  restoreWaiting(text: string): boolean;
}

export type { SharedRecords } from './shared-records';
/** The RFQ desk's open records, handed from one fleet member serving it to the next (redis/rfq-keep.ts). */
export interface RfqHandover {
  /** The open RFQs and quotes as [field, record] pairs. */
  openRecords(): Array<[string, string]>;
  /** Take kept records over (into an empty desk); nothing is pushed, nothing changed for their owners. */
  takeOver(kept: Record<string, string>): void;
  /** Forget every RFQ and quote (the desk moved to another member). */
  forget(): void;
  /** Be told of every change of an RFQ or quote, once it is made. */
  watch(changed: () => void): void;
}
