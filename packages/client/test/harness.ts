/**
 * The shared setup of the client's unit tests against a scripted peer: a fresh peer per test, a
 * client made by `make()` that records its errors, validation reports and states, and both closed
 * after each test.
 */
import { afterEach, beforeEach } from 'vitest';
import {
  createClient,
  type ClientError,
  type ConnectionState,
  type ExchangeClient,
  type ValidationReport,
} from '../src/index';
import { fullBudgets, startPeer, type Peer } from './peer';

/** What getRateLimits answers in these tests: every budget full. */
export const rateLimits = fullBudgets;

/** An instrument as `public/get_instrument` answers it (the fields these tests read). */
export function instrument(instrument_name: string, instrument_type: string) {
  return {
    instrument_name,
    instrument_type,
    base_currency: instrument_name.split('-')[0],
    quote_currency: 'USDC',
    tick_size: '0.01',
    amount_step: '0.001',
    is_active: true,
    base_asset_address: '0x5cC1b2Cae1C9D5bbF50b7dA3d1B9E2b0a2D3c8e1',
    base_asset_sub_id: '0',
  };
}

/**
 * A peer's answers for the instruments it lists: `public/get_all_live_instruments` their names (as the
 * venue answers, derive-ts's string[]), `public/get_instrument` one record, an unknown name refused;
 * undefined for any other method.
 */
export function instrumentAnswers(list: ReturnType<typeof instrument>[]) {
  return (req: { method: string; params?: unknown }) => {
    if (req.method === 'public/get_all_live_instruments') return { result: list.map((i) => i.instrument_name) };
    if (req.method !== 'public/get_instrument') return undefined;
    const name = (req.params as { instrument_name?: unknown } | undefined)?.instrument_name;
    const found = list.find((i) => i.instrument_name === name);
    return found
      ? { result: found }
      : { error: { code: -32602, message: 'Invalid params', data: 'unknown instrument' } };
  };
}

/** Options of `make()`: any client option, wsUrl included, over the harness's defaults. */
export type MakeOptions = Partial<Parameters<typeof createClient>[0]>;

/** The test's peer and client, and what the client reported. */
export interface ClientHarness {
  peer: Peer;
  client: ExchangeClient;
  errors: ClientError[];
  reports: ValidationReport[];
  states: ConnectionState[];
  /** A client on the peer (fast reconnects, 'warn'), watched from its creation. */
  make(extra?: MakeOptions): ExchangeClient;
}

/** Register the per-test peer and client of the calling test file. */
export function useClientHarness(): ClientHarness {
  const t = {
    errors: [],
    reports: [],
    states: [],
    make(extra: MakeOptions = {}) {
      t.client = createClient({
        wsUrl: t.peer.url,
        validate: 'warn',
        reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
        ...extra,
      });
      t.errors = [];
      t.reports = [];
      t.states = [];
      t.client.on('error', (e) => t.errors.push(e));
      t.client.on('validation', (r) => t.reports.push(r));
      t.client.on('state', (s) => t.states.push(s));
      return t.client;
    },
  } as unknown as ClientHarness;
  beforeEach(async () => {
    t.peer = await startPeer();
    t.peer.answer = (req) => (req.method === 'public/getRateLimits' ? { result: rateLimits } : undefined);
  });
  afterEach(async () => {
    await t.client?.close();
    t.client = undefined as unknown as ExchangeClient;
    await t.peer.close();
  });
  return t;
}
