/** The extractor reads TypeScript types as facts: enums, optional and nullable fields, arrays, maps, records. */
import { describe, expect, it } from 'vitest';
import { readDeriveTs } from '../src/derive-ts';
import { readCcxt } from '../src/ccxt';
import { sortedJson } from '../src/json-out';

const generated = `
export type JsonRpcId = string | number | null;
export type Side = 'buy' | 'sell';
export interface Level { price: string; amount: string }
export interface Book { bids: Level[]; note?: string | null; side: Side; extra: { [k: string]: number }; when: number }
export interface Req { id: JsonRpcId; method: 'x'; params: { instrument_name: string; depth?: 1 | 10 } }
export type Res = ({ result: Book } | { error: { code: number } }) & { id: JsonRpcId };
export interface EndpointMap { 'public/get_book': { request: Req; response: Res } }
export interface ChannelSchemaMap { 'book.{instrument_name}': { params: { instrument_name: string }; data: Book[] } }
`;

describe('readDeriveTs', () => {
  const ev = readDeriveTs(generated, '9.9.9', null);

  it('reads params and result, with records by name', () => {
    const m = ev.methods['public/get_book']!;
    expect(m.params.fields).toEqual([
      { name: 'depth', required: false, types: ['number'], enum: [1, 10] },
      { name: 'instrument_name', required: true, types: ['string'] },
    ]);
    expect(m.result).toEqual({ types: ['object'], ref: 'Book' });
    expect(ev.records.Book!.fields).toEqual([
      { name: 'bids', required: true, types: ['array'], items: { types: ['object'], ref: 'Level' } },
      { name: 'extra', required: true, types: ['object'], values: { types: ['number'] } },
      { name: 'note', required: false, types: ['null', 'string'] },
      { name: 'side', required: true, types: ['string'], enum: ['buy', 'sell'], enumName: 'Side' },
      { name: 'when', required: true, types: ['number'] },
    ]);
  });

  it('reads channels: parameters and data', () => {
    expect(ev.channels['book.{instrument_name}']).toEqual({
      params: { instrument_name: {} },
      data: { types: ['array'], items: { types: ['object'], ref: 'Book' } },
    });
  });

  it('refuses a file without an EndpointMap, naming what it looked for', () => {
    expect(() => readDeriveTs('export type A = string;', '1', null)).toThrow(/no interface EndpointMap/);
  });

  it('writes the same bytes for the same input', () => {
    expect(sortedJson(readDeriveTs(generated, '9.9.9', null))).toBe(sortedJson(ev));
  });
});

describe('readCcxt', () => {
  const api = {
    public: { get: { get_time: {} }, post: { get_time: {}, getRateLimits: {} } },
    private: { post: { order: {} } },
  };
  const rest =
    'a = await this.publicPostGetTime(r); b = await this.privatePostOrder(r); c = this.publicPostGetRateLimits(x);';
  const pro = `const topic = 'orderbook.' + market['id'] + '.10'; const request = { 'method': 'subscribe' };
    const topic = this.safeString(params, 'channel');`;

  it('lists the API, the methods called and the channels subscribed to', () => {
    const ev = readCcxt('1.0.0', api, rest, pro);
    expect(ev.listed).toEqual({
      'public/get_time': ['GET', 'POST'],
      'public/getRateLimits': ['POST'],
      'private/order': ['POST'],
    });
    expect(ev.called).toEqual({
      rest: ['private/order', 'public/getRateLimits', 'public/get_time'],
      ws: ['subscribe'],
    });
    expect(ev.channels).toEqual(['orderbook.{}.10']);
  });

  it('refuses a call its API does not list', () => {
    expect(() => readCcxt('1.0.0', api, 'this.publicPostNope(x)', '')).toThrow(/publicPostNope/);
  });
});
