/**
 * Generated sample records for the control plane's `generate` and for event channels nobody has
 * traded on yet. They never touch the market, and draw from their own stream.
 */
import type { Order, PublicTrade } from '@exchange-api/types';
import type { Accounts } from '../accounts';
import { bps, fmt } from '../fixed';
import { amountText, notional, priceText, type Instrument } from './instrument';
import type { Counterparties } from './counterparties';
import { privateRecord, type Settlement } from './settlement';
import type { Streams } from './random';
import { TAKER_FEE_BPS } from './rates';
import { ZERO_ADDRESS, type PrivateTrade } from './types';

/** Sample orders and trades. */
export class Samples {
  constructor(
    private readonly accounts: Accounts,
    private readonly counterparties: Counterparties,
    private readonly settlement: Settlement,
    private readonly streams: Streams,
  ) {}

  /** A sample Order record (its signature is a placeholder: the sandbox holds no user's key). */
  order(inst: Instrument, subaccount: number, now: number): Order {
    return {
      amount: amountText(inst, 10),
      average_price: '0',
      creation_timestamp: now,
      direction: 'buy',
      extra_fee: '0',
      filled_amount: '0',
      instrument_name: inst.cfg.instrument_name,
      is_transfer: false,
      last_update_timestamp: now,
      limit_price: priceText(inst, inst.midTicks - inst.halfSpread * 10),
      max_fee: fmt(bps(notional(inst, inst.midTicks, 10), 10 * TAKER_FEE_BPS)),
      mmp: false,
      nonce: String(now * 1000),
      order_fee: '0',
      order_id: this.streams.uuid('samples'),
      order_status: 'open',
      order_type: 'limit',
      quote_id: null,
      replaced_order_id: null,
      signature: `0x${'11'.repeat(65)}`,
      signature_expiry_sec: Math.floor(now / 1000) + 3600,
      signed_limit_price: null,
      signer: this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS,
      subaccount_id: subaccount,
      time_in_force: 'gtc',
      trigger_price: null,
      cancel_reason: '',
      label: '',
    };
  }

  /** A sample of a subaccount's own trade record at the mid. */
  privateTrade(inst: Instrument, now: number, subaccount: number): PrivateTrade {
    return privateRecord(this.trade(inst, now, subaccount), this.streams.uuid('samples'), '');
  }

  /** A sample public trade at the mid, by a simulated taker or the given subaccount. */
  trade(inst: Instrument, now: number, subaccount?: number): PublicTrade {
    const { cp } = this.counterparties.pickTaker(this.streams.of('samples'));
    const lots = Math.max(1, Math.round(0.1 / inst.step));
    return this.settlement.tradeRecord(inst, {
      direction: 'buy',
      priceTicks: inst.midTicks,
      lots,
      role: 'taker',
      wallet: subaccount === undefined ? cp.address : (this.accounts.walletOf(subaccount) ?? ZERO_ADDRESS),
      subaccount: subaccount ?? cp.subaccount,
      fee: bps(notional(inst, inst.midTicks, lots), TAKER_FEE_BPS),
      realized: 0n,
      now,
      tradeId: this.streams.uuid('samples'),
    });
  }
}
