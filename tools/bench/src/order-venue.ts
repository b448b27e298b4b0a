/**
 * The venue side of the order-path benchmark: a sandbox in this process, a wallet logged in on one
 * WebSocket, and orders signed ahead of time (signing is the client's cost, never timed). `load` fills the
 * venue with other subaccounts' state: open positions, trigger orders waiting and orders resting.
 */
import { Wallet, type HDNodeWallet } from 'ethers';
import type { WebSocket } from 'ws';
import { newNonce, signAction, signLogin } from '@exchange-api/auth';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { open, request } from './ws-load';

const HUGE = 1_000_000_000;
/** Budgets no benchmark reaches: the order path's cost is measured, never a refusal. */
const LIMITS = {
  public: { points: HUGE },
  non_matching: { points: HUGE },
  matching: { points: HUGE },
  bucket_perp_spot: { capacity: HUGE, refillPerSecond: HUGE },
  bucket_option: { capacity: HUGE, refillPerSecond: HUGE },
};
export const INSTRUMENTS = ['ETH-PERP', 'BTC-PERP'] as const;
type Name = (typeof INSTRUMENTS)[number];
/** The taker's subaccount; the loaded venue's other subaccounts follow it. */
const TAKER = 1;

export interface OrderShape {
  instrument: Name;
  direction: 'buy' | 'sell';
  /** The limit as a multiple of the mid: below 1 for a buy that rests (or leaves, ioc), above 1 to cross. */
  atMid: number;
  order_type?: 'limit' | 'market';
  time_in_force?: 'gtc' | 'ioc';
  trigger?: { trigger_type: 'stoploss'; trigger_price_type: 'mark'; atMid: number };
}

interface Instrument {
  base_asset_address: string;
  base_asset_sub_id: string;
  tick: number;
}

export class Venue {
  private id = 10;
  private constructor(
    readonly sb: Sandbox,
    private readonly ws: WebSocket,
    private readonly wallet: HDNodeWallet,
    private readonly instruments: Map<Name, Instrument>,
  ) {}

  /** A sandbox whose wallet holds the taker and `others` more subaccounts, logged in. */
  static async start(others: number): Promise<Venue> {
    const wallet = Wallet.createRandom();
    const subaccounts = Array.from({ length: 1 + others }, (_, i) => TAKER + i);
    // The market ticks once a second: a tick's work (requotes, triggers, funding) is not what is timed,
    // but the maker's quotes the fills take must come back.
    const sb = await startSandbox({
      port: 0,
      limits: LIMITS,
      market: { intervalMs: 1000 },
      wallets: [{ address: wallet.address, subaccounts }],
    });
    const ws = await open(sb.wsUrl);
    const venue = new Venue(sb, ws, wallet, new Map());
    await venue.call('public/login', await signLogin(wallet));
    for (const name of INSTRUMENTS) {
      const i = (await venue.call('public/get_instrument', { instrument_name: name })) as Instrument & {
        tick_size: string;
      };
      venue.instruments.set(name, { ...i, tick: Number(i.tick_size) });
    }
    return venue;
  }

  /** One request's result; throws with the error when it fails. */
  async call(method: string, params: unknown): Promise<unknown> {
    const reply = JSON.parse(await request(this.ws, this.id++, method, params)) as {
      result?: unknown;
      error?: unknown;
    };
    if (reply.error !== undefined) throw new Error(`${method}: ${JSON.stringify(reply.error).slice(0, 300)}`);
    return reply.result;
  }

  async mid(name: Name): Promise<number> {
    const t = (await this.call('public/get_ticker', { instrument_name: name })) as { mark_price: string };
    return Number(t.mark_price);
  }

  /** `n` private/order params of one shape, signed now, for subaccount `sub` (each its own nonce). */
  async sign(shape: OrderShape, n: number, sub = TAKER): Promise<object[]> {
    const inst = this.instruments.get(shape.instrument)!;
    const mid = await this.mid(shape.instrument);
    const at = (x: number) => (Math.round((mid * x) / inst.tick) * inst.tick).toFixed(2);
    const out: object[] = [];
    for (let i = 0; i < n; i++) {
      const params = {
        instrument_name: shape.instrument,
        direction: shape.direction,
        order_type: shape.order_type ?? 'limit',
        time_in_force: shape.time_in_force ?? 'gtc',
        amount: '0.01',
        limit_price: at(shape.atMid),
        max_fee: '1000',
        subaccount_id: sub,
        nonce: newNonce(),
        signature_expiry_sec: Math.floor(Date.now() / 1000) + 3600,
        ...(shape.trigger && {
          trigger_type: shape.trigger.trigger_type,
          trigger_price_type: shape.trigger.trigger_price_type,
          trigger_price: at(shape.trigger.atMid),
        }),
      };
      out.push(await signAction(this.wallet, 'private/order', params, { instrument: inst }));
    }
    return out;
  }

  /** Send signed orders one at a time; the milliseconds each took, from send to reply. */
  async time(orders: object[]): Promise<number[]> {
    const times: number[] = [];
    for (const p of orders) {
      const t0 = performance.now();
      await this.call('private/order', p);
      times.push(performance.now() - t0);
    }
    return times;
  }

  /**
   * The other subaccounts' state: each opens a position (alternately in each perp, alternately long
   * and short), leaves a stop-loss trigger order waiting far from the mark and `resting` limit orders
   * resting far from it.
   */
  async load(others: number, resting: number): Promise<void> {
    for (let k = 1; k <= others; k++) {
      const sub = TAKER + k;
      const instrument = INSTRUMENTS[k % 2]!;
      const long = k % 4 < 2;
      const [fill] = await this.sign(
        { instrument, direction: long ? 'buy' : 'sell', atMid: long ? 1.05 : 0.95 },
        1,
        sub,
      );
      await this.call('private/order', fill);
      const trigger = { trigger_type: 'stoploss', trigger_price_type: 'mark', atMid: long ? 0.5 : 1.5 } as const;
      const direction = long ? 'sell' : 'buy';
      const [stop] = await this.sign(
        { instrument, direction, atMid: long ? 0.45 : 1.55, order_type: 'limit', trigger },
        1,
        sub,
      );
      await this.call('private/order', stop);
      for (const p of await this.sign({ instrument, direction: 'buy', atMid: 0.5 }, resting, sub))
        await this.call('private/order', p);
    }
  }

  async close(): Promise<void> {
    this.ws.terminate();
    await this.sb.close();
  }
}
