/**
 * Spec checklist (issue 2), records, fields, enumerations, open places and shared scalars: holds
 * spec/asyncapi.yaml against a checklist written by hand from the
 * interface document (shared/spec-source/exchange-api-v3.md). The tables below are the document's
 * content, NOT read from the spec, so an edit of the spec that loses a record, a field, a required
 * flag, a null, a default, an enum value, a channel, a method, an error or a limit fails here and the
 * failing row names what went missing.
 *
 * The spec is read through the project's own loader and model (loadSpec + buildModel); where the
 * model does not carry something (or fills a default when a key is missing, e.g. x-access,
 * x-rate-limit-class, x-transports), the raw YAML data (loadSpec(...).data) is checked too.
 *
 * Types are written as the spec expresses them: the $ref name of a named schema (Decimal,
 * NonNegativeDecimal, Int64, Int32, UInt64, Timestamp, UUID, Address, an enumeration or a record) or a
 * plain JSON type, or `array of X` / `map of string to X`; `| null` is not part of the type column,
 * nullability has its own column. Record timestamps (document: int64, unit not shown) are `Timestamp`
 * per the spec's timestamps-ms assumption; other int64 fields are `Int64`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RECORDS } from './checklist/document-records';
import { OPEN_ENUMS, OPEN_RECORDS, OPEN_ELEMENTS } from './checklist/document-tables';
import {
  type Obj,
  isObj,
  raw,
  type,
  field,
  validator,
  baseType,
  rawNullable,
  FIELD_ROWS,
  ENUM_ROWS,
  model,
  loadChecklist,
} from './checklist/reader';

/** The values derive-ts 3.0.13 lists for the enumerations whose values the document does not show. */
const CLIENT_ENUMS: Record<(typeof OPEN_ENUMS)[number], string[]> = {
  TimeInForce: ['gtc', 'post_only', 'fok', 'ioc'],
  TriggerPriceType: ['mark', 'index'],
  TriggerType: ['stoploss', 'takeprofit'],
};

/** A payload of each feed record, as the sandbox sends it (assumption sandbox-feed-payloads). */
const FEED_ENTRY = {
  price: '3000',
  confidence: '1',
  price_prev_daily: '2990',
  confidence_prev_daily: '1',
  timestamp_prev_daily: 1,
};
const FEED_SAMPLES: Record<(typeof OPEN_RECORDS)[number], unknown> = {
  SpotFeedEntry: FEED_ENTRY,
  SpotFeedPayload: { timestamp: 2, feeds: { ETH: FEED_ENTRY } },
  TickerSlimPayload: {
    timestamp: 2,
    instrument_ticker: {
      t: 2,
      A: '1',
      a: '3001',
      B: '1',
      b: '2999',
      f: '0',
      I: '3000',
      M: '3000',
      minp: '2700',
      maxp: '3300',
      stats: { c: '1', h: '3010', l: '2990', n: 3, oi: '5', p: '0.1', pr: '1', v: '3000' },
      option_pricing: null,
    },
  },
};

beforeAll(loadChecklist);

// ================================================================================================
// Records and fields
// ================================================================================================

describe('records', () => {
  it('the checklist covers the 19 records the brief names', () => {
    expect(Object.keys(RECORDS)).toHaveLength(19);
  });

  it.each(Object.keys(RECORDS))('%s is a record in the spec', (record) => {
    const t = type(record);
    expect(t.kind).toBe('record');
    expect(raw('components', 'schemas', record, 'type')).toBe('object');
  });

  it.each(Object.keys(RECORDS))("%s: the required set equals the document's exactly", (record) => {
    const expected = RECORDS[record]!.filter((f) => f.required)
      .map((f) => f.field)
      .sort();
    const rawRequired = raw('components', 'schemas', record, 'required');
    const actual = (Array.isArray(rawRequired) ? (rawRequired as string[]) : []).slice().sort();
    expect(actual).toEqual(expected);
    expect(
      (type(record).fields ?? [])
        .filter((f) => f.required)
        .map((f) => f.name)
        .sort(),
    ).toEqual(expected);
  });

  it.each(Object.keys(RECORDS))('%s: the fields are exactly those the document lists', (record) => {
    const expected = RECORDS[record]!.map((f) => f.field).sort();
    expect((type(record).fields ?? []).map((f) => f.name).sort()).toEqual(expected);
  });

  describe.each(Object.keys(RECORDS))('%s', (record) => {
    const rows = FIELD_ROWS.filter((r) => r.record === record);
    it.each(rows)('$record › $field: $type, required $required, nullable $nullable', (row) => {
      const f = field(record, row.field);
      const allowed = typeof row.type === 'string' ? [row.type] : [...row.type];
      expect(allowed, `${record}.${row.field} is typed ${f.type}`).toContain(baseType(f));
      expect(f.required, `${record}.${row.field} required`).toBe(row.required);
      expect(f.nullable, `${record}.${row.field} nullable`).toBe(row.nullable);
      expect(
        rawNullable(raw('components', 'schemas', record, 'properties', row.field)),
        `${record}.${row.field} null written as anyOf/type list`,
      ).toBe(row.nullable);
      expect(f.default, `${record}.${row.field} default`).toEqual(row.default);
      // Every named type the field uses exists as a schema.
      for (const ref of f.refs)
        expect(
          model.types.some((t) => t.name === ref),
          `${record}.${row.field} refers to ${ref}`,
        ).toBe(true);
    });
  });

  it('Order.cancel_reason and Order.label default to the empty string', () => {
    expect(field('Order', 'cancel_reason').default).toBe('');
    expect(field('Order', 'label').default).toBe('');
  });

  it('a level of the order book is an array of exactly two strings (price, then amount)', () => {
    const level = validator('OrderbookLevel');
    expect(level(['3000', '12.5'])).toBe(true);
    expect(level(['3000'])).toBe(false);
    expect(level(['3000', '12.5', '1'])).toBe(false);
    expect(level([3000, '12.5'])).toBe(false);
    expect(level(['3000', 12.5])).toBe(false);
    const book = validator('OrderbookPayload');
    const ok = { instrument_name: 'ETH-PERP', publish_id: 1, timestamp: 1, bids: [['1', '2']], asks: [] };
    expect(book(ok)).toBe(true);
    expect(book({ ...ok, bids: [['1', '2', '3']] })).toBe(false);
    expect(book({ ...ok, publish_id: -1 })).toBe(false);
  });

  it('AuctionDetails.subaccount_balances maps asset name to a decimal string', () => {
    const details = validator('AuctionDetails');
    const base = {
      estimated_bid_price: '1',
      estimated_discount_pnl: '1',
      estimated_mtm: '1',
      estimated_percent_bid: '1',
      margin_type: 'PM',
      min_price_limit: '1',
    };
    expect(details({ ...base, subaccount_balances: { USDC: '1.5' } })).toBe(true);
    expect(details({ ...base, subaccount_balances: { USDC: 1.5 } })).toBe(false);
  });
});

// ================================================================================================
// Enumerations and open places
// ================================================================================================

describe('enumerations', () => {
  it.each(ENUM_ROWS)("$name has exactly the document's values, in order", ({ name, values }) => {
    const t = type(name);
    expect(t.kind).toBe('enum');
    expect(t.values).toEqual([...values]);
    expect(raw('components', 'schemas', name, 'type')).toBe('string');
  });

  it.each(['CancelReason', 'RFQCancelReason'])('%s allows the empty string', (name) => {
    expect(validator(name)('')).toBe(true);
    expect(validator(name)('not_a_reason')).toBe(false);
  });

  // Places the document does not show keep their x-not-shown marker; where the venue's own client types
  // them (derive-ts 3.0.13, spec/evidence; assumption client-endpoint-map) the spec follows it, and
  // tools/evidence holds it to that client field by field.
  it.each([...OPEN_ENUMS])("%s is a string with an x-not-shown marker, its values derive-ts's", (name) => {
    const s = raw('components', 'schemas', name) as Obj;
    expect(s.type).toBe('string');
    expect(s.enum).toEqual(CLIENT_ENUMS[name]);
    expect(type(name).notShown).toBeTruthy();
    expect(validator(name)(CLIENT_ENUMS[name][0])).toBe(true);
    expect(validator(name)('anything')).toBe(false);
  });

  it.each([...OPEN_RECORDS])('%s keeps its x-not-shown marker and takes the shape the sandbox sends', (name) => {
    const s = raw('components', 'schemas', name) as Obj;
    expect(s['x-not-shown']).toBeTruthy();
    expect(type(name).notShown).toBeTruthy();
    expect(validator(name)(FEED_SAMPLES[name])).toBe(true);
    expect(validator(name)({ any: 'field' })).toBe(false);
  });

  // The document shows no field of the private trade record: the fields and which are required are
  // derive-ts's (TradeWireResponse; assumption private-trade), and other fields are allowed.
  it('Trade keeps its x-not-shown marker, requires what derive-ts requires and allows other fields', () => {
    const s = raw('components', 'schemas', 'Trade') as Obj;
    expect(s.required).toEqual(expect.arrayContaining(['order_id', 'trade_id', 'op_uuid', 'subaccount_id']));
    expect(s.required).not.toContain('label');
    expect(s.additionalProperties).toBe(true);
    expect(type('Trade').notShown).toBeTruthy();
    expect(s['x-assumption']).toBe('private-trade');
    expect(validator('Trade')({ any: 'field' })).toBe(false);
  });

  it.each(OPEN_ELEMENTS.map(([r, f]) => ({ r, f })))(
    '$r › $f elements are open with an x-not-shown marker',
    ({ r, f }) => {
      const items = raw('components', 'schemas', r, 'properties', f, 'items') as Obj;
      expect(isObj(items)).toBe(true);
      expect(Object.keys(items).filter((k) => !k.startsWith('x-'))).toEqual([]);
      expect(items['x-not-shown']).toBeTruthy();
      expect(field(r, f).notShown).toBeTruthy();
    },
  );
});

// ================================================================================================
// Shared scalars
// ================================================================================================

describe('shared scalars', () => {
  it('Decimal accepts up to 12 fractional digits and rejects 13', () => {
    const pattern = new RegExp(raw('components', 'schemas', 'Decimal', 'pattern') as string);
    const v = validator('Decimal');
    for (const ok of ['0', '3000', '-12.5', '0.000000000001', '123456789.123456789012']) {
      expect(pattern.test(ok), ok).toBe(true);
      expect(v(ok), ok).toBe(true);
    }
    for (const bad of ['0.0000000000001', '1.1234567890123', '', 'abc', '1e5', '1.']) {
      expect(v(bad), bad).toBe(false);
    }
    expect(v(1.5)).toBe(false); // records carry the string; DecimalInput also takes a number
    expect(validator('DecimalInput')(1.5)).toBe(true);
    expect(raw('components', 'schemas', 'Decimal', 'type')).toBe('string');
  });

  it('NonNegativeDecimal rejects negatives', () => {
    const v = validator('NonNegativeDecimal');
    expect(v('0')).toBe(true);
    expect(v('1.5')).toBe(true);
    expect(v('0.000000000001')).toBe(true);
    expect(v('-1')).toBe(false);
    expect(v('-0.5')).toBe(false);
    expect(v('0.0000000000001')).toBe(false);
    expect(validator('NonNegativeDecimalInput')(-1)).toBe(false);
  });

  it('Address is ^0x[0-9a-fA-F]{40}$', () => {
    expect(raw('components', 'schemas', 'Address', 'pattern')).toBe('^0x[0-9a-fA-F]{40}$');
    const v = validator('Address');
    expect(v('0x8Ba1f109551bD432803012645Ac136ddd64DBA72')).toBe(true);
    expect(v('0x8Ba1f109551bD432803012645Ac136ddd64DBA7')).toBe(false);
    expect(v('0x8Ba1f109551bD432803012645Ac136ddd64DBA722')).toBe(false);
    expect(v('8Ba1f109551bD432803012645Ac136ddd64DBA72ab')).toBe(false);
    expect(v('0xZZa1f109551bD432803012645Ac136ddd64DBA72')).toBe(false);
  });

  it('UUID is in v4 form', () => {
    const v = validator('UUID');
    expect(v('7f3c2a9e-1b4d-4c8a-9e2f-0a1b2c3d4e5f')).toBe(true);
    expect(v('7f3c2a9e-1b4d-1c8a-9e2f-0a1b2c3d4e5f')).toBe(false);
    expect(v('not-a-uuid')).toBe(false);
  });

  it.each(['Int64', 'Timestamp'])('%s is a JSON integer', (name) => {
    expect(raw('components', 'schemas', name, 'type')).toBe('integer');
    const v = validator(name);
    expect(v(1767225600000)).toBe(true);
    expect(v(-1)).toBe(true);
    expect(v(1.5)).toBe(false);
    expect(v('1')).toBe(false);
  });

  it('UInt64 (publish_id, n) is an integer with minimum 0', () => {
    expect(raw('components', 'schemas', 'UInt64', 'type')).toBe('integer');
    expect(raw('components', 'schemas', 'UInt64', 'minimum')).toBe(0);
  });

  it('JsonRpcId is string, number or null', () => {
    const t = raw('components', 'schemas', 'JsonRpcId', 'type');
    expect(Array.isArray(t) ? [...(t as string[])].sort() : t).toEqual(['null', 'number', 'string']);
    const v = validator('JsonRpcId');
    for (const ok of ['a', 1, 1.5, null]) expect(v(ok), String(ok)).toBe(true);
    for (const bad of [{}, [], true]) expect(v(bad), JSON.stringify(bad)).toBe(false);
  });
});
