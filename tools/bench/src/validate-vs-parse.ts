/**
 * For realistic frames: time to validate a parsed payload ÷ time to JSON.parse the same frame, both
 * measured in the same run, alternating rounds so machine noise hits both sides alike.
 */
import { validators } from '@exchange-api/validators';
import type { ValidateFunction } from '@exchange-api/validators';
import { orderbookFrame, orders, publicTrades } from './frames';
import { median, type BenchResult } from './report';

function timeLoop(n: number, fn: () => void): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - t0) / n;
}

function ratio(payload: unknown, validate: ValidateFunction): number {
  const text = JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel: 'x', data: payload } });
  const data = (JSON.parse(text) as { params: { data: unknown } }).params.data;
  if (!validate(data)) throw new Error(`bench frame is not valid: ${JSON.stringify(validate.errors)}`);
  const iterations = Math.max(200, Math.round(2_000_000 / text.length));
  let sink = 0;
  const ratios: number[] = [];
  for (let round = 0; round < 15; round++) {
    const parse = timeLoop(iterations, () => {
      sink += (JSON.parse(text) as object) ? 1 : 0;
    });
    const valid = timeLoop(iterations, () => {
      sink += validate(data) ? 1 : 0;
    });
    if (round >= 3) ratios.push(valid / parse); // the first rounds warm the JIT
  }
  if (sink < 0) console.log(sink);
  return median(ratios);
}

export function runValidateVsParse(): BenchResult[] {
  const cases: Array<[string, unknown, ValidateFunction]> = [
    ['orderbook depth 10', orderbookFrame(10), validators.channels.orderbook],
    ['orderbook depth 100', orderbookFrame(100), validators.channels.orderbook],
    ['20 orders', orders(20), validators.channels.subaccountOrders],
    ['20 public trades', publicTrades(20), validators.channels.trades],
  ];
  return cases.map(([name, payload, validate]) => ({
    name: `validate/parse ${name}`,
    value: ratio(payload, validate as ValidateFunction),
    op: '<=' as const,
    target: 0.2,
  }));
}
