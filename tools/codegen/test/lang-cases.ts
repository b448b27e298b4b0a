/**
 * The round-trip cases for the generated models: every example of the spec (channel messages, method
 * params and results, named schemas), each with the schema it is an example of, and edge cases built
 * from them that the examples do not show (keys a record does not declare, integers beyond 2^53,
 * optional empty lists, a null result).
 */
import { messageVariants, refName } from '../src/model/schema-tools';
import type { ApiModel, JsonSchema } from '../src/index';

export interface RoundTripCase {
  where: string;
  /** The spec's schema name. */
  type: string;
  /** The value is a list of values of `type` (a channel whose payload is an array of records). */
  array: boolean;
  value: unknown;
}

/**
 * The named schema of a payload (or of each of its items), or null for an unnamed payload. A channel
 * with several messages (an `anyOf` of named schemas) takes the first option whose required keys the
 * value has.
 */
function payloadCase(where: string, schema: JsonSchema, value: unknown, model: ApiModel): RoundTripCase {
  const options = messageVariants(schema);
  if (options) {
    const fits = options.find((o) => {
      const name = refName(o);
      const required = name ? ((model.schemas[name]?.required as string[] | undefined) ?? []) : null;
      return required !== null && typeof value === 'object' && value !== null && required.every((k) => k in value);
    });
    if (fits) return payloadCase(where, fits, value, model);
  }
  const named = refName(schema);
  const item = schema.type === 'array' ? refName(schema.items) : null;
  if (!named && !item) throw new Error(`${where}: the payload is not a named schema or a list of one`);
  return { where, type: (named ?? item)!, array: named === null, value };
}

export function exampleCases(model: ApiModel): RoundTripCase[] {
  const cases: RoundTripCase[] = [];
  for (const c of model.channels)
    c.examples.forEach((v, i) =>
      cases.push(payloadCase(`channel ${c.id} example ${i + 1}`, c.payload.schema, v, model)),
    );
  for (const m of model.methods) {
    m.paramsExamples.forEach((v, i) =>
      cases.push(payloadCase(`${m.name} params example ${i + 1}`, m.params.schema, v, model)),
    );
    m.resultExamples.forEach((v, i) =>
      cases.push(payloadCase(`${m.name} result example ${i + 1}`, m.result.schema, v, model)),
    );
  }
  for (const t of model.types)
    t.examples.forEach((v, i) =>
      cases.push({ where: `schema ${t.name} example ${i + 1}`, type: t.name, array: false, value: v }),
    );
  return cases;
}

/** The first example of a channel's payload (the first record when it is a list). */
function firstRecord(model: ApiModel, channel: string): Record<string, unknown> {
  const example = model.channels.find((c) => c.id === channel)!.examples[0];
  return (Array.isArray(example) ? example[0] : example) as Record<string, unknown>;
}

export function edgeCases(model: ApiModel): RoundTripCase[] {
  return [
    {
      where: 'a key PublicTrade does not declare',
      type: 'PublicTrade',
      array: false,
      value: { ...firstRecord(model, 'trades'), venue_note: { n: 12345678901234567890n } },
    },
    {
      where: 'UInt64 and Int64 at their limits',
      type: 'OrderbookPayload',
      array: false,
      value: {
        ...firstRecord(model, 'orderbook'),
        publish_id: 18446744073709551615n,
        timestamp: -9223372036854775808n,
      },
    },
    {
      where: 'free-form numbers beyond 2^53 and fractions',
      // An open record of the spec (the document does not show order's params).
      type: 'OrderParams',
      array: false,
      value: { big: 9007199254740993n, half: 0.5, list: [null, true, 'x'] },
    },
    { where: 'an optional list given empty', type: 'UnsubscribeParams', array: false, value: { channels: [] } },
    {
      where: 'a response whose result is null',
      type: 'JsonRpcResponse',
      array: false,
      value: { jsonrpc: '2.0', id: 7, result: null },
    },
    {
      where: 'a nullable record given null',
      type: 'AuctionResult',
      array: false,
      value: { state: 'ended', subaccount_id: 1, timestamp: 2, details: null },
    },
  ];
}

/** A case every language must refuse: the test's proof that a round trip can fail. */
export function refusedCase(model: ApiModel): RoundTripCase {
  return {
    where: 'refused: amount as a list',
    type: 'PublicTrade',
    array: false,
    value: { ...firstRecord(model, 'trades'), trade_amount: ['not', 'a', 'string'] },
  };
}

/** JSON text of the cases; bigint values are written as exact JSON integers. */
export function casesJson(cases: RoundTripCase[]): string {
  return JSON.stringify(cases, (_, v: unknown) => (typeof v === 'bigint' ? `@@big:${v}@@` : v)).replace(
    /"@@big:(-?\d+)@@"/g,
    '$1',
  );
}
