import { describe, expect, it } from 'vitest';
import { validators, assertValid, failuresOf, ValidationError, is, cut } from '../src/index';
import { modelFromSpec } from '@exchange-api/codegen';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const specFile = join(fileURLToPath(import.meta.url), '..', '..', '..', '..', 'spec', 'asyncapi.yaml');
const model = await modelFromSpec(specFile);

const order = () =>
  structuredClone(
    model.channels.find((c) => c.id === 'subaccountOrders')!.examples[0] as Array<Record<string, unknown>>,
  );
const book = () =>
  structuredClone(model.channels.find((c) => c.id === 'orderbook')!.examples[0] as Record<string, unknown>);
const rfqs = () =>
  structuredClone(model.channels.find((c) => c.id === 'walletRfqs')!.examples[0] as Array<Record<string, unknown>>);

describe('every example in the spec validates with the generated validators', () => {
  const cases = [
    ...model.channels.flatMap((c) =>
      c.examples.map(
        (e, i) => [`channel ${c.id} #${i}`, validators.channels[c.id as keyof typeof validators.channels], e] as const,
      ),
    ),
    ...model.methods.flatMap((m) => [
      ...m.paramsExamples.map(
        (e, i) => [`${m.name} params #${i}`, validators.params[m.name as keyof typeof validators.params], e] as const,
      ),
      ...m.resultExamples.map(
        (e, i) => [`${m.name} result #${i}`, validators.results[m.name as keyof typeof validators.results], e] as const,
      ),
    ]),
  ];
  it('there are examples to check', () => expect(cases.length).toBeGreaterThanOrEqual(15));
  it.each(cases)('%s', (_name, validate, example) => {
    expect(failuresOf(validate as never, example)).toEqual([]);
  });
});

describe('invalid payloads are rejected with the right pointer and rule', () => {
  it.each([
    [
      'a missing required field',
      validators.channels.subaccountOrders,
      () => {
        const o = order();
        delete o[0]!.order_status;
        return o;
      },
      '/0/order_status',
      /^required/,
    ],
    [
      '13 fractional digits',
      validators.channels.subaccountOrders,
      () => {
        const o = order();
        o[0]!.limit_price = '3000.0000000000001';
        return o;
      },
      '/0/limit_price',
      /^pattern/,
    ],
    [
      'a bad address',
      validators.channels.walletRfqs,
      () => {
        const r = rfqs();
        r[0]!.wallet = '0x123';
        return r;
      },
      '/0/wallet',
      /^pattern \^0x\[0-9a-fA-F\]\{40\}\$/,
    ],
    [
      'a wrong enum value',
      validators.channels.subaccountOrders,
      () => {
        const o = order();
        o[0]!.direction = 'hold';
        return o;
      },
      '/0/direction',
      /^enum/,
    ],
    [
      'a wrong level shape (three strings)',
      validators.channels.orderbook,
      () => {
        const b = book();
        (b.bids as unknown[])[1] = ['1', '2', '3'];
        return b;
      },
      '/bids/1',
      /^maxItems/,
    ],
    [
      'a level of numbers',
      validators.channels.orderbook,
      () => {
        const b = book();
        (b.asks as unknown[])[0] = [3010, 1];
        return b;
      },
      '/asks/0/0',
      /^type string/,
    ],
    [
      'an object where the document says array',
      validators.channels.subaccountOrders,
      () => order()[0],
      '/',
      /^type array/,
    ],
    [
      'a negative non-negative decimal',
      validators.channels.walletRfqs,
      () => {
        const r = rfqs();
        r[0]!.filled_pct = '-1';
        return r;
      },
      '/0/filled_pct',
      /^pattern/,
    ],
    [
      'a timestamp that is not an integer',
      validators.channels.orderbook,
      () => ({ ...book(), timestamp: 1.5 }),
      '/timestamp',
      /^type integer/,
    ],
    [
      'a null where null is not allowed',
      validators.channels.subaccountOrders,
      () => {
        const o = order();
        o[0]!.order_id = null;
        return o;
      },
      '/0/order_id',
      /^type string/,
    ],
  ])('%s', (_name, validate, make, pointer, rule) => {
    const failures = failuresOf(validate as never, make());
    expect(failures.map((f) => f.pointer)).toContain(pointer);
    expect(failures.find((f) => f.pointer === pointer)!.rule).toMatch(rule);
  });

  it('nullable fields accept null and optional fields may be absent', () => {
    const o = order();
    o[0]!.trigger_price = null;
    delete o[0]!.label;
    delete o[0]!.cancel_reason;
    expect(failuresOf(validators.channels.subaccountOrders as never, o)).toEqual([]);
  });

  it('inputs accept a decimal as a string or a JSON number; outputs only as a string', () => {
    expect(is.DecimalInput('1.25')).toBe(true);
    expect(is.DecimalInput(1.25)).toBe(true);
    expect(is.Decimal(1.25)).toBe(false);
    expect(is.NonNegativeDecimalInput(-1)).toBe(false);
    expect(is.Int64(2 ** 40)).toBe(true);
    expect(is.Int64(1.5)).toBe(false);
    expect(is.JsonRpcId(null)).toBe(true);
    expect(is.UUID('7f3c2a9e-1b4d-4c8a-9e2f-0a1b2c3d4e5f')).toBe(true);
    expect(is.UUID('7f3c2a9e-1b4d-1c8a-9e2f-0a1b2c3d4e5f')).toBe(false);
  });
});

describe('assertValid', () => {
  it('throws a ValidationError listing pointer, rule and the offending value cut short', () => {
    const o = order();
    o[0]!.limit_price = '1.' + '1'.repeat(200);
    o[0]!.direction = 'up';
    try {
      assertValid(validators.channels.subaccountOrders, o, 'orders payload');
      throw new Error('did not throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      const err = e as ValidationError;
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.target).toBe('orders payload');
      expect(err.failures.map((f) => f.pointer).sort()).toEqual(['/0/direction', '/0/limit_price']);
      expect(err.message).toMatch(/\/0\/limit_price: pattern .* \(got "1\.1{20,}…\)/);
      expect(err.failures.every((f) => f.value.length <= 60)).toBe(true);
    }
  });

  it('narrows the type when valid', () => {
    const data: unknown = book();
    assertValid(validators.channels.orderbook, data);
    expect(data.publish_id).toBe(5120);
    expect(cut('x'.repeat(100), 10)).toHaveLength(10);
  });
});
