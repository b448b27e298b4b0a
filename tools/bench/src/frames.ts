/** Realistic frames, built deterministically so every run measures the same bytes. */
export function orderbookFrame(depth: number) {
  const bids: [string, string][] = [];
  const asks: [string, string][] = [];
  for (let i = 0; i < depth; i++) {
    bids.push([(3000 - i * 0.5).toFixed(1), (1 + ((i * 7) % 13) / 4).toFixed(2)]);
    asks.push([(3000.5 + i * 0.5).toFixed(1), (1 + ((i * 5) % 11) / 4).toFixed(2)]);
  }
  return { instrument_name: 'ETH-PERP', publish_id: 123456, timestamp: 1767225600000, bids, asks };
}

export function orders(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    amount: '1.5',
    average_price: '0',
    creation_timestamp: 1767225600000 + i,
    direction: i % 2 ? 'sell' : 'buy',
    extra_fee: '0',
    filled_amount: '0',
    instrument_name: 'ETH-PERP',
    is_transfer: false,
    last_update_timestamp: 1767225600000 + i,
    limit_price: (3000 + i).toString(),
    max_fee: '10',
    mmp: false,
    nonce: String(1767225600000001 + i),
    order_fee: '0',
    order_id: `9b2d4f6a-3c5e-4a7b-8c9d-${String(i).padStart(12, '0')}`,
    order_status: 'open',
    order_type: 'limit',
    quote_id: null,
    replaced_order_id: null,
    signature: '0x' + 'ab'.repeat(65),
    signature_expiry_sec: 1767229200,
    signed_limit_price: '3000',
    signer: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
    subaccount_id: 1042,
    time_in_force: 'gtc',
    trigger_price: null,
    cancel_reason: '',
    label: '',
  }));
}

export function publicTrades(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    direction: i % 2 ? 'sell' : 'buy',
    expected_rebate: '0',
    extra_fee: '0',
    index_price: '3004.5',
    mark_price: '3005',
    realized_pnl: '0',
    realized_pnl_excl_fees: '0',
    trade_amount: '0.5',
    trade_fee: '0.75',
    trade_id: String(88120 + i),
    trade_price: (3000 + i / 10).toFixed(1),
    instrument_name: 'ETH-PERP',
    wallet: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72',
    liquidity_role: i % 3 ? 'maker' : 'taker',
    subaccount_id: 1042,
    timestamp: 1767225600000 + i,
    quote_id: null,
  }));
}
