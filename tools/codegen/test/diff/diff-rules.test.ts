/**
 * One case per rule of `exchange-api diff`: a small spec, an edit, and the class wanted on each side.
 * Both versions are read into the model as `generate` reads them; the classification comes from the
 * model, never from JSON paths.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diffModels, FIXED_RULES, FLOW_RULES, type Change, type Severity } from '../../src/index';
import { rawChanges, unmodelled } from '../../src/diff/raw';
import { baseSpec, modelOf, type Spec } from './base-spec';

/** Another change the edit makes, besides the case's own: `rule client/server`. */
type Also = string[];
type Case = [
  rule: string,
  client: Severity,
  server: Severity,
  edit: (s: Spec) => void,
  before?: (s: Spec) => void,
  also?: Also,
];
const S = (s: Spec) => s.components.schemas;
const op = (s: Spec, id: string) => s.operations[id];
const newOp = (s: Spec) => {
  s.operations.getBook = { ...structuredClone(op(s, 'getQuote')), 'x-method': 'public/get_book' };
};

const CASES: Case[] = [
  [
    'channel.removed',
    'breaking',
    'safe',
    (s) => {
      delete s.channels.ticks;
      delete s.operations.receiveTicks;
    },
  ],
  [
    'channel.added',
    'safe',
    'breaking',
    (s) => {
      s.channels.trades = { ...structuredClone(s.channels.ticks), address: 'trades.{symbol}.{depth}' };
      s.operations.receiveTrades = { action: 'receive', channel: { $ref: '#/channels/trades' } };
    },
  ],
  [
    'channel.address-changed',
    'breaking',
    'breaking',
    (s) => {
      s.channels.ticks.address = 'ticks-{symbol}-{depth}';
    },
  ],
  [
    'channel.made-private',
    'breaking',
    'breaking',
    (s) => {
      s.channels.ticks['x-access'] = 'private';
    },
  ],
  [
    'channel.made-public',
    'safe',
    'breaking',
    (s) => {
      s.channels.ticks['x-access'] = 'public';
    },
    (s) => {
      s.channels.ticks['x-access'] = 'private';
    },
  ],
  [
    'channel.parameter-added',
    'breaking',
    'breaking',
    (s) => {
      s.channels.ticks.address += '.{group}';
      s.channels.ticks.parameters.group = { description: 'grouping' };
    },
  ],
  [
    'channel.parameter-removed',
    'breaking',
    'breaking',
    (s) => {
      s.channels.ticks.address = 'ticks.{symbol}';
      delete s.channels.ticks.parameters.depth;
    },
  ],
  [
    'channel.parameter-value-added',
    'safe',
    'breaking',
    (s) => {
      s.channels.ticks.parameters.depth.enum.push('100');
    },
  ],
  [
    'channel.parameter-value-removed',
    'breaking',
    'safe',
    (s) => {
      s.channels.ticks.parameters.depth.enum = ['1'];
    },
  ],
  [
    'channel.parameter-restricted',
    'breaking',
    'safe',
    (s) => {
      s.channels.ticks.parameters.symbol.enum = ['BTC', 'ETH'];
    },
  ],
  [
    'channel.parameter-opened',
    'safe',
    'breaking',
    (s) => {
      delete s.channels.ticks.parameters.depth.enum;
    },
  ],
  [
    'channel.payload-changed',
    'breaking',
    'breaking',
    (s) => {
      s.components.messages.Tick.payload = { type: 'array', items: { $ref: '#/components/schemas/Tick' } };
    },
  ],
  [
    'method.removed',
    'breaking',
    'safe',
    (s) => {
      delete s.operations.getQuote;
    },
  ],
  ['method.added', 'safe', 'breaking', newOp],
  [
    'method.operation-id-changed',
    'breaking',
    'safe',
    (s) => {
      s.operations.fetchQuote = s.operations.getQuote;
      delete s.operations.getQuote;
    },
  ],
  [
    'method.params-changed',
    'breaking',
    'breaking',
    (s) => {
      s.components.messages.QuoteRequest.payload = { $ref: '#/components/schemas/FillsParams' };
    },
  ],
  [
    'method.result-changed',
    'breaking',
    'breaking',
    (s) => {
      s.components.messages.QuoteReply.payload = { $ref: '#/components/schemas/Fill' };
    },
  ],
  [
    'method.transport-removed',
    'breaking',
    'safe',
    (s) => {
      op(s, 'getFills')['x-transports'] = ['ws'];
      delete op(s, 'getFills')['x-http-path'];
    },
  ],
  [
    'method.transport-added',
    'safe',
    'breaking',
    (s) => {
      op(s, 'getQuote')['x-transports'] = ['ws', 'http'];
      op(s, 'getQuote')['x-http-path'] = '/v1/public/get_quote';
    },
  ],
  [
    'method.http-path-changed',
    'breaking',
    'breaking',
    (s) => {
      op(s, 'getFills')['x-http-path'] = '/v2/private/get_fills';
    },
  ],
  [
    'method.login-required',
    'breaking',
    'breaking',
    (s) => {
      op(s, 'getQuote')['x-auth'] = 'login';
    },
  ],
  [
    'method.login-dropped',
    'safe',
    'breaking',
    (s) => {
      op(s, 'getFills')['x-auth'] = 'none';
    },
  ],
  [
    'method.rate-limit-changed',
    'dangerous',
    'dangerous',
    (s) => {
      op(s, 'getQuote')['x-rate-limit-class'] = 'writes';
    },
    (s) => {
      s['x-rate-limit-classes'].push({ name: 'writes', appliesTo: 'orders', budget: 'reads' });
    },
  ],
  [
    'method.order-flow-changed',
    'breaking',
    'breaking',
    (s) => {
      op(s, 'getFills')['x-order-flow'] = true;
    },
  ],
  [
    'field.added-required',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.account = { type: 'string' };
      S(s).FillsParams.required = ['account'];
    },
  ],
  // QuoteParams is closed (additionalProperties: false): an old server refuses the field it does not know.
  [
    'field.added-required-closed',
    'breaking',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.account = { type: 'string' };
      S(s).QuoteParams.required.push('account');
    },
  ],
  [
    'field.added-required-closed',
    'dangerous',
    'breaking',
    (s) => {
      S(s).Quote.properties.venue = { type: 'string' };
      S(s).Quote.required.push('venue');
    },
    (s) => {
      S(s).Quote.additionalProperties = false;
    },
  ],
  [
    'field.added-required',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.properties.venue = { type: 'string' };
      S(s).Quote.required.push('venue');
    },
  ],
  [
    'field.added-optional',
    'safe',
    'dangerous',
    (s) => {
      S(s).FillsParams.properties.memo = { type: 'string' };
    },
  ],
  [
    'field.added-optional-closed',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.memo = { type: 'string' };
    },
  ],
  [
    'field.added-optional-closed',
    'dangerous',
    'safe',
    (s) => {
      S(s).Quote.properties.venue = { type: 'string' };
    },
    (s) => {
      S(s).Quote.additionalProperties = false;
    },
  ],
  [
    'field.added-optional',
    'safe',
    'safe',
    (s) => {
      S(s).Quote.properties.source = { type: 'string' };
    },
  ],
  [
    'field.removed',
    'breaking',
    'safe',
    (s) => {
      delete S(s).Tick.properties.venue;
    },
  ],
  [
    'field.removed',
    'breaking',
    'safe',
    (s) => {
      delete S(s).QuoteParams.properties.label;
    },
  ],
  // A field that was required in params: an old server still demands it.
  [
    'field.removed-required',
    'breaking',
    'breaking',
    (s) => {
      delete S(s).QuoteParams.properties.size;
      S(s).QuoteParams.required = ['symbol'];
    },
  ],
  [
    'field.removed-required',
    'breaking',
    'safe',
    (s) => {
      delete S(s).Quote.properties.expires;
      S(s).Quote.required = ['price'];
    },
  ],
  [
    'field.made-required',
    'breaking',
    'safe',
    (s) => {
      S(s).QuoteParams.required.push('tif');
    },
  ],
  [
    'field.made-required',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.required.push('note');
    },
  ],
  [
    'field.made-optional',
    'breaking',
    'safe',
    (s) => {
      S(s).Quote.required = ['price'];
    },
  ],
  [
    'field.made-optional',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.required = ['symbol'];
    },
  ],
  [
    'field.made-nullable',
    'breaking',
    'safe',
    (s) => {
      S(s).Quote.properties.note = { type: ['string', 'null'] };
    },
  ],
  [
    'field.made-nullable',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.label = { type: ['string', 'null'] };
    },
  ],
  [
    'field.made-non-nullable',
    'breaking',
    'safe',
    (s) => {
      S(s).QuoteParams.properties.label = { type: 'string' };
    },
    (s) => {
      S(s).QuoteParams.properties.label = { type: ['string', 'null'] };
    },
  ],
  [
    'field.type-changed',
    'breaking',
    'breaking',
    (s) => {
      S(s).Quote.properties.expires = { type: 'string' };
    },
  ],
  [
    'enum.value-added',
    'dangerous',
    'safe',
    (s) => {
      S(s).Side.enum.push('close');
    },
  ],
  [
    'enum.value-added',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.tif.enum.push('fok');
    },
  ],
  [
    'enum.value-removed',
    'breaking',
    'safe',
    (s) => {
      S(s).QuoteParams.properties.tif.enum = ['gtc'];
    },
  ],
  [
    'enum.value-removed',
    'breaking',
    'breaking',
    (s) => {
      S(s).Side.enum = ['buy'];
    },
  ],
  [
    'constraint.widened',
    'dangerous',
    'safe',
    (s) => {
      S(s).Price.pattern = '^[0-9]+(\\.[0-9]{1,12})?$';
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).Size.pattern = '^[0-9]+(\\.[0-9]{1,4})?$';
    },
  ],
  [
    'constraint.widened',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.symbol.maxLength = 64;
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.limit.maximum = 50;
    },
  ],
  [
    'constraint.narrowed',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.properties.expires.maximum = 4102444800000;
    },
  ],
  [
    'constraint.changed',
    'dangerous',
    'dangerous',
    (s) => {
      S(s).Price.pattern = '^[0-9a-f]+$';
    },
  ],
  [
    'record.opened',
    'safe',
    'breaking',
    (s) => {
      delete S(s).QuoteParams.additionalProperties;
    },
  ],
  [
    'record.closed',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.additionalProperties = false;
    },
  ],
  [
    'type.removed',
    'breaking',
    'safe',
    (s) => {
      delete S(s).Legacy;
    },
    (s) => {
      S(s).Legacy = { type: 'object', properties: { a: { type: 'string' } } };
    },
  ],
  [
    'type.added',
    'safe',
    'safe',
    (s) => {
      S(s).Extra = { type: 'string' };
    },
  ],
  [
    'type.kind-changed',
    'breaking',
    'breaking',
    (s) => {
      S(s).Side = { type: 'string' };
    },
  ],
  [
    'type.shape-stated',
    'safe',
    'breaking',
    (s) => {
      S(s).Extra = { type: 'object', properties: { a: { type: 'string' } } };
    },
    withExtra({ description: 'Not shown.' }),
  ],
  [
    'type.union-narrowed',
    'safe',
    'breaking',
    (s) => {
      S(s).Extra = { type: 'object', required: ['a'], properties: { a: { type: 'string' } } };
    },
    withExtra({
      anyOf: [
        { type: 'object', properties: { a: { type: 'string' } } },
        { type: 'array', items: { type: 'string' } },
      ],
    }),
    // The kept branch is compared as the record it was: its field a, now required, is the other change.
    ['field.made-required safe/breaking'],
  ],
  [
    'error.removed',
    'dangerous',
    'safe',
    (s) => {
      s['x-errors'].codes.pop();
    },
  ],
  [
    'error.added',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-errors'].codes.push({
        code: 11000,
        name: 'INSUFFICIENT_FUNDS',
        kind: 'order',
        httpStatus: 400,
        message: 'Insufficient funds',
        condition: 'Margin.',
      });
    },
  ],
  [
    'error.message-changed',
    'dangerous',
    'breaking',
    (s) => {
      s['x-errors'].codes[0].message = 'Too many requests';
    },
  ],
  [
    'error.name-changed',
    'breaking',
    'safe',
    (s) => {
      s['x-errors'].codes[0].name = 'TOO_MANY_REQUESTS';
    },
  ],
  [
    'error.status-changed',
    'dangerous',
    'breaking',
    (s) => {
      s['x-errors'].codes[1].httpStatus = 403;
    },
  ],
  [
    'error.kind-changed',
    'dangerous',
    'safe',
    (s) => {
      s['x-errors'].codes[1].kind = 'request';
    },
  ],
  [
    'limit.tightened',
    'dangerous',
    'breaking',
    (s) => {
      Object.assign(s['x-limits'][0], { tps: 2, points: 10 });
    },
  ],
  [
    'limit.loosened',
    'safe',
    'breaking',
    (s) => {
      s['x-limits'][1].max = 20;
    },
  ],
  [
    'limit.added',
    'dangerous',
    'breaking',
    (s) => {
      s['x-limits'].push({ id: 'size', title: 'Frame size', kind: 'size', scope: 'connection', maxBytes: 65536 });
    },
  ],
  [
    'limit.removed',
    'safe',
    'dangerous',
    (s) => {
      s['x-limits'].pop();
    },
  ],
  [
    'limit.changed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-limits'][0].scope = 'ip';
    },
  ],
  [
    'rate-limit-class.added',
    'safe',
    'dangerous',
    (s) => {
      s['x-rate-limit-classes'].push({ name: 'writes', appliesTo: 'orders', budget: 'reads' });
    },
  ],
  [
    'rate-limit-class.changed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-rate-limit-classes'][0].appliesTo = 'reads only';
    },
  ],
  [
    'assumption.added',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-assumptions'].push({ id: 'fills-order', title: 'Fill order', choice: 'newest first', reason: 'not shown' });
    },
  ],
  [
    'assumption.removed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-assumptions'] = [];
    },
  ],
  [
    'assumption.changed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-assumptions'][0].choice = 'microseconds';
    },
  ],
  // Renaming a channel's id keeps its address: only the generated names move.
  [
    'channel.renamed',
    'breaking',
    'safe',
    (s) => {
      s.channels.quotes = s.channels.ticks;
      delete s.channels.ticks;
      s.operations.receiveTicks.channel = { $ref: '#/channels/quotes' };
    },
  ],
  [
    'rate-limit-class.removed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-rate-limit-classes'].pop();
    },
    (s) => {
      s['x-rate-limit-classes'].push({ name: 'writes', appliesTo: 'orders', budget: 'reads' });
    },
  ],
  [
    'login.changed',
    'breaking',
    'breaking',
    (s) => {
      s['x-login'].headers.wallet = 'X-Wallet';
    },
    withLogin,
  ],
  [
    'login.window-changed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-login'].freshness.pastMs = 10000;
    },
    withLogin,
  ],
  [
    'login.reverify-changed',
    'dangerous',
    'dangerous',
    (s) => {
      s['x-login'].reverify.intervalMs = 60000;
    },
    withLogin,
  ],
  [
    'action-signature.changed',
    'breaking',
    'breaking',
    (s) => {
      s['x-action-signature'].domain.chainId = 1;
    },
    withSignature,
  ],
  [
    'action-signature.extended',
    'safe',
    'dangerous',
    (s) => {
      s['x-action-signature'].modules.rfq = {
        address: '0x00000000000000000000000000000000000000cc',
        data: [{ name: 'quote', type: '(uint256 maxFee)', from: 'a quote' }],
      };
      s['x-action-signature'].paramsHash = 'keccak256 of the params, by module';
    },
    withModules,
  ],
  [
    'action-signature.changed',
    'breaking',
    'breaking',
    (s) => {
      s['x-action-signature'].modules.trade.data.push({ name: 'extra', type: 'uint256', from: 'a word more' });
    },
    withModules,
  ],
  [
    'error.data-changed',
    'dangerous',
    'breaking',
    (s) => {
      s['x-errors'].codes[0].data = 'Retry after <s> s';
    },
    (s) => {
      s['x-errors'].codes[0].data = 'Retry after <ms> ms';
    },
  ],

  // Gap 1: places the model compared not at all. Unions (variants added, removed, changed).
  [
    'union.variant-removed',
    'breaking',
    'breaking',
    (s) => {
      S(s).Quote.properties.ref.anyOf.pop();
    },
    (s) => {
      S(s).Quote.properties.ref = { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }] };
    },
  ],
  [
    'union.variant-added',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.label.anyOf.push({ type: 'boolean' });
    },
    (s) => {
      S(s).QuoteParams.properties.label = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    },
  ],
  [
    'union.variant-added',
    'dangerous',
    'safe',
    (s) => {
      S(s).Pick.oneOf.push({ $ref: '#/components/schemas/Fill' });
    },
    (s) => {
      S(s).Pick = { oneOf: [{ $ref: '#/components/schemas/Side' }, { type: 'integer' }] };
      S(s).Quote.properties.pick = { $ref: '#/components/schemas/Pick' };
    },
  ],
  // A field whose old type is one variant of its new union widens (the login timestamp: string → string | integer).
  [
    'union.variant-added',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.label = { $ref: '#/components/schemas/LabelInput' };
      S(s).LabelInput = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    },
    undefined,
    ['type.added safe/safe'],
  ],
  [
    'union.variant-added',
    'dangerous',
    'safe',
    (s) => {
      S(s).Quote.properties.note = { anyOf: [{ type: 'string', description: 'as before' }, { type: 'integer' }] };
    },
  ],
  [
    'union.variant-removed',
    'breaking',
    'breaking',
    (s) => {
      S(s).Quote.properties.note = { type: 'string' };
    },
    (s) => {
      S(s).Quote.properties.note = { anyOf: [{ type: 'string' }, { type: 'integer' }] };
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).QuoteParams.properties.label.anyOf[0].maxLength = 8;
    },
    (s) => {
      S(s).QuoteParams.properties.label = { anyOf: [{ type: 'string', maxLength: 16 }, { type: 'integer' }] };
    },
  ],
  // Nested inline objects: fields added, removed, made required.
  [
    'field.added-required',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.properties.meta.properties.b = { type: 'string' };
      S(s).Quote.properties.meta.required = ['b'];
    },
    (s) => {
      S(s).Quote.properties.meta = { type: 'object', properties: { a: { type: 'string' } } };
    },
  ],
  [
    'field.removed-required',
    'breaking',
    'breaking',
    (s) => {
      S(s).FillsParams.properties.filter.properties = { b: { type: 'string' } };
      S(s).FillsParams.properties.filter.required = [];
    },
    (s) => {
      S(s).FillsParams.properties.filter = { type: 'object', required: ['a'], properties: { a: { type: 'string' } } };
    },
    ['field.added-optional safe/dangerous'],
  ],
  [
    'field.made-required',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.filter.required = ['a'];
    },
    (s) => {
      S(s).FillsParams.properties.filter = { type: 'object', properties: { a: { type: 'string' } } };
    },
  ],
  // Array items: constraints and enumerations of the items.
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.ids.items.maxLength = 5;
    },
    (s) => {
      S(s).FillsParams.properties.ids = { type: 'array', items: { type: 'string', maxLength: 10 } };
    },
  ],
  [
    'enum.value-added',
    'safe',
    'breaking',
    (s) => {
      S(s).FillsParams.properties.sides.items.enum.push('close');
    },
    (s) => {
      S(s).FillsParams.properties.sides = { type: 'array', items: { type: 'string', enum: ['buy', 'sell'] } };
    },
  ],
  // Tuples: another number of items.
  [
    'field.type-changed',
    'breaking',
    'breaking',
    (s) => {
      S(s).Quote.properties.level.items.push({ type: 'string' });
    },
    (s) => {
      S(s).Quote.properties.level = { type: 'array', items: [{ type: 'string' }, { type: 'string' }] };
    },
  ],
  // Fields of an inline allOf part.
  [
    'field.added-optional',
    'safe',
    'safe',
    (s) => {
      S(s).QuoteX.allOf[1].properties.y = { type: 'string' };
    },
    withAllOf,
  ],
  [
    'constraint.narrowed',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteX.allOf[1].properties.x.maxLength = 4;
    },
    withAllOf,
  ],
  // The records a method assumes where the document leaves params open.
  [
    'method.params-changed',
    'breaking',
    'breaking',
    (s) => {
      op(s, 'getQuote')['x-assumed-params'] = 'FillsParams';
    },
    (s) => {
      op(s, 'getQuote')['x-assumed-params'] = 'QuoteParams';
    },
  ],
  // A new key of a limit (a bound that appears allows less).
  [
    'limit.tightened',
    'dangerous',
    'breaking',
    (s) => {
      s['x-limits'][0].max = 3;
    },
  ],

  // Gap 2: a nullable change, an inline enum, a named scalar made nullable: one change each, no type change beside it.
  [
    'constraint.narrowed',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.properties.note = { type: 'string', enum: ['a', 'b'] };
    },
  ],
  [
    'constraint.widened',
    'safe',
    'breaking',
    (s) => {
      S(s).QuoteParams.properties.tif = { type: 'string' };
    },
  ],
  [
    'field.made-nullable',
    'breaking',
    'safe',
    (s) => {
      S(s).Price.type = ['string', 'null'];
    },
  ],
  [
    'field.made-nullable',
    'breaking',
    'safe',
    (s) => {
      S(s).Quote.properties.note = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    },
  ],
  [
    'field.made-non-nullable',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.properties.price = { $ref: '#/components/schemas/Price' };
    },
    (s) => {
      S(s).Quote.properties.price = { anyOf: [{ $ref: '#/components/schemas/Price' }, { type: 'null' }] };
    },
  ],

  // Gap 3: records assumed for params are sent by clients (x-assumed-params), so are the enumerations in them.
  [
    'enum.value-added',
    'safe',
    'breaking',
    (s) => {
      S(s).Kind.enum.push('stop');
    },
    (s) => {
      S(s).Kind = { type: 'string', enum: ['limit', 'market'] };
      S(s).AssumedQuote = { type: 'object', properties: { kind: { $ref: '#/components/schemas/Kind' } } };
      op(s, 'getQuote')['x-assumed-params'] = 'AssumedQuote';
    },
  ],

  // Issue 23: a channel of several messages. Each message is matched (by id, then by structure) and compared
  // with its match field by field, whatever the $ref/inline form: what its clients read changed.
  [
    'field.type-changed',
    'breaking',
    'breaking',
    (s) => {
      const copy = structuredClone(S(s).Tick);
      copy.properties.price = { type: 'integer' };
      s.components.messages.Tick.payload = copy;
    },
    withTwoMessages,
    ['type.added safe/safe'],
  ],
  [
    'channel.payload-changed',
    'breaking',
    'breaking',
    (s) => {
      s.components.messages.Tick.payload = { type: 'array', items: { $ref: '#/components/schemas/Tick' } };
    },
    withTwoMessages,
  ],
  // Tick's $ref swapped for Quote: Tick's fields are gone, Quote's are new.
  [
    'field.removed-required',
    'breaking',
    'safe',
    (s) => {
      s.components.messages.Tick.payload = { $ref: '#/components/schemas/Quote' };
    },
    withTwoMessages,
    [
      'field.removed breaking/safe',
      'field.removed breaking/safe',
      'field.added-required safe/breaking',
      'field.added-optional safe/safe',
    ],
  ],
  [
    'union.variant-added',
    'dangerous',
    'safe',
    (s) => {
      s.channels.ticks.messages.Book = { $ref: '#/components/messages/Book' };
    },
    (s) => {
      withTwoMessages(s);
      s.components.messages.Book = { payload: { $ref: '#/components/schemas/Quote' } };
    },
  ],
  [
    'union.variant-removed',
    'breaking',
    'breaking',
    (s) => {
      delete s.channels.ticks.messages.Book;
    },
    (s) => {
      withTwoMessages(s);
      s.components.messages.Book = { payload: { $ref: '#/components/schemas/Quote' } };
      s.channels.ticks.messages.Book = { $ref: '#/components/messages/Book' };
    },
  ],
  // Issue 23: constraint keywords that narrow what a record or array clients send accepts.
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.ids.uniqueItems = true;
    },
    withIds,
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.ids.contains = { const: 'first' };
    },
    withIds,
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.ids.maxContains = 2;
    },
    (s) => {
      withIds(s);
      S(s).FillsParams.properties.ids.contains = { const: 'first' };
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.properties.symbol.not = { const: 'ALL' };
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.if = { required: ['limit'] };
      S(s).FillsParams.then = { required: ['symbol'] };
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.dependentRequired = { limit: ['symbol'] };
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.propertyNames = { maxLength: 8 };
    },
  ],
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.unevaluatedProperties = false;
    },
  ],
  // On an open record, patternProperties only constrain the fields they match.
  [
    'constraint.narrowed',
    'breaking',
    'safe',
    (s) => {
      S(s).FillsParams.patternProperties = { '^s': { maxLength: 3 } };
    },
  ],
  // On a closed record they also let in fields it refused: both ends may break.
  [
    'record.pattern-fields-changed',
    'breaking',
    'breaking',
    (s) => {
      S(s).QuoteParams.patternProperties = { '^s': { maxLength: 3 } };
    },
  ],
  [
    'record.pattern-fields-changed',
    'dangerous',
    'breaking',
    (s) => {
      S(s).Quote.patternProperties = { '^n': { maxLength: 3 } };
    },
    (s) => {
      S(s).Quote.additionalProperties = false;
    },
  ],
  [
    'constraint.narrowed',
    'safe',
    'breaking',
    (s) => {
      S(s).Quote.properties.note.not = { const: '' };
    },
  ],
  // A keyword the diff does not compare, changed: never safe, never silent.
  [
    'constraint.changed',
    'dangerous',
    'dangerous',
    (s) => {
      S(s).FillsParams.discriminator = 'symbol';
    },
  ],
];

function withLogin(s: Spec): void {
  s['x-login'] = {
    headers: { wallet: 'X-ServiceWallet', timestamp: 'X-ServiceTimestamp', signature: 'X-ServiceSignature' },
    message: 'The time, signed.',
    freshness: { pastMs: 30000, futureMs: 5000, appliesTo: 'wallet' },
    reverify: { intervalMs: 30000 },
  };
}
function withSignature(s: Spec): void {
  s['x-action-signature'] = {
    domain: { name: 'x', version: '1', chainId: 31337 },
    primaryType: 'Action',
    types: { Action: [{ name: 'method', type: 'string' }] },
    paramsHash: 'keccak256 of the params',
    signatureFields: ['signer', 'signature'],
  };
}
/** withSignature, with one module of one layout (its words in order). */
function withModules(s: Spec): void {
  withSignature(s);
  s['x-action-signature'].modules = {
    trade: {
      address: '0x00000000000000000000000000000000000000aa',
      data: [{ name: 'isBid', type: 'bool', from: 'direction is buy' }],
    },
  };
}
/** A named schema Extra (as given) in the Quote a server sends. */
function withExtra(extra: Spec) {
  return (s: Spec): void => {
    S(s).Extra = extra;
    S(s).Quote.properties.extra = { $ref: '#/components/schemas/Extra' };
  };
}
/** The ticks channel carries a second message, Trade (a Fill), so its payload is one of several messages. */
function withTwoMessages(s: Spec): void {
  s.components.messages.Trade = { payload: { $ref: '#/components/schemas/Fill' } };
  s.channels.ticks.messages.Trade = { $ref: '#/components/messages/Trade' };
}
function withIds(s: Spec): void {
  S(s).FillsParams.properties.ids = { type: 'array', items: { type: 'string' } };
}
function withAllOf(s: Spec): void {
  S(s).QuoteX = {
    allOf: [
      { $ref: '#/components/schemas/Quote' },
      { type: 'object', properties: { x: { type: 'string', maxLength: 8 } } },
    ],
  };
  s.components.messages.QuoteReply.payload = { $ref: '#/components/schemas/QuoteX' };
}

const triple = (c: Change) => `${c.rule} ${c.client}/${c.server}`;

describe('every rule, on each side', () => {
  // The complete set of changes: the case's own, and nothing beside it (no contradicting extra change).
  it.each(CASES.map((c, i) => [`${c[0]} (#${i + 1}): client ${c[1]}, server ${c[2]}`, c] as const))(
    '%s',
    (_name, [rule, client, server, edit, prepare, also]) => {
      const before = baseSpec();
      prepare?.(before);
      const after = structuredClone(before);
      edit(after);
      const changes = diffModels(modelOf(before), modelOf(after));
      expect(changes.map(triple).sort()).toEqual([`${rule} ${client}/${server}`, ...(also ?? [])].sort());
      for (const c of changes) expect(c.why.length).toBeGreaterThan(20);
    },
  );

  it('covers at least 30 rules, and every rule of the table but the raw-list ones', () => {
    const tested = new Set(CASES.map((c) => c[0]));
    expect(tested.size).toBeGreaterThanOrEqual(30);
    const untested = [...Object.keys(FIXED_RULES), ...Object.keys(FLOW_RULES)].filter((r) => !tested.has(r));
    // The raw-list rules have their own tests below.
    expect(untested.sort()).toEqual(['info.version-changed', 'other.changed']);
  });

  it(
    'an unchanged spec has no change, and a version bump alone is safe on both ' +
      'sides (not "breaking" as @asyncapi/diff says)',
    () => {
      expect(diffModels(modelOf(baseSpec()), modelOf(baseSpec()))).toEqual([]);
      const before = baseSpec();
      const after = baseSpec();
      after.info.version = '2.0.0';
      const raw = rawChanges(before, after);
      expect(raw).toEqual([{ action: 'edit', path: '/info/version', type: 'breaking' }]);
      const changes = unmodelled(raw, before, after);
      expect(changes.map((c) => [c.rule, c.client, c.server])).toEqual([['info.version-changed', 'safe', 'safe']]);
    },
  );

  it(
    'a change outside the model (a server added) is reported from the raw list ' +
      'as dangerous, not lost; documentation edits are not',
    () => {
      const before = baseSpec();
      const after = baseSpec();
      after.servers = { prod: { host: 'api.example.com', protocol: 'wss' } };
      after.components.schemas.Tick.description = 'A tick.';
      const changes = unmodelled(rawChanges(before, after), before, after);
      expect(changes.map((c) => [c.rule, c.subject, c.client])).toEqual([['other.changed', '/servers', 'dangerous']]);
    },
  );

  it('a removed field names the generated property to fix; a removed channel its address and payload types', () => {
    const after = baseSpec();
    delete after.components.schemas.Tick.properties.venue;
    delete after.channels.ticks;
    delete after.operations.receiveTicks;
    const names = diffModels(modelOf(baseSpec()), modelOf(after)).flatMap((c) => c.names);
    expect(names).toEqual(expect.arrayContaining(['TicksAddress', 'TicksChannelPayload', 'Tick.venue']));
  });

  it(
    'a required field added names the new property (code building the record ' +
      'must set it); an optional one names nothing',
    () => {
      const after = baseSpec();
      S(after).FillsParams.properties.account = { type: 'string' };
      S(after).FillsParams.required = ['account'];
      S(after).FillsParams.properties.cursor = { type: 'string' };
      const changes = diffModels(modelOf(baseSpec()), modelOf(after));
      expect(changes.map((c) => [c.rule, c.client, c.names])).toEqual([
        ['field.added-required', 'breaking', ['FillsParams.account']],
        ['field.added-optional', 'safe', []],
      ]);
    },
  );
});

describe('a channel of several messages', () => {
  const changesOf = (prepare: (s: Spec) => void, edit: (s: Spec) => void) => {
    const before = baseSpec();
    prepare(before);
    const after = structuredClone(before);
    edit(after);
    return diffModels(modelOf(before), modelOf(after));
  };

  it(
    'messages put in another order, or one inlined as an exact copy of its record, ' + 'are no change of the channel',
    () => {
      expect(changesOf(withTwoMessages, () => {})).toEqual([]);
      const reordered = changesOf(withTwoMessages, (s) => {
        const { Tick, Trade } = s.channels.ticks.messages;
        s.channels.ticks.messages = { Trade, Tick };
      });
      expect(reordered).toEqual([]);
      const inlined = changesOf(withTwoMessages, (s) => {
        s.components.messages.Tick.payload = structuredClone(S(s).Tick);
      });
      expect(inlined.map(triple)).toEqual(['type.added safe/safe']);
    },
  );

  it('a message under another id is matched by its structure: its changes name the message, not a new one', () => {
    const changes = changesOf(withTwoMessages, (s) => {
      delete s.channels.ticks.messages.Trade;
      const copy = structuredClone(S(s).Fill);
      copy.required.push('fee');
      s.channels.ticks.messages.Execution = { payload: copy };
    });
    expect(changes.map((c) => `${triple(c)} ${c.subject}`)).toEqual([
      'field.made-required safe/breaking channel ticks, message Execution, field fee',
      'type.added safe/safe record ExecutionPayload',
    ]);
    expect(changes[0]!.names).toEqual(['TicksChannelPayload', "ChannelPayloads['ticks']"]);
  });
});

describe('exact numbers, plain patterns, generated names', () => {
  it('compares 64-bit bounds by their exact text (both round to one double) and prints them as written', () => {
    const spec = baseSpec();
    S(spec).Quote.properties.seq = { type: 'integer', minimum: 0, maximum: 'MAX_HERE' };
    const at = (n: string) => (t: string) => t.replace('MAX_HERE', n);
    const changes = diffModels(modelOf(spec, at('18446744073709551000')), modelOf(spec, at('18446744073709551615')));
    expect(changes.map((c) => [c.rule, c.detail, c.client, c.server])).toEqual([
      ['constraint.widened', 'maximum 18446744073709551000 → 18446744073709551615 (widened)', 'dangerous', 'safe'],
    ]);
    expect(diffModels(modelOf(spec, at('18446744073709551615')), modelOf(spec, at('18446744073709551615')))).toEqual(
      [],
    );
  });

  it('prints a pattern plain, not escaped as JSON; an error status without one as none', () => {
    const after = baseSpec();
    S(after).Price.pattern = '^[0-9]+(\\.[0-9]{1,12})?$';
    delete after['x-errors'].codes[0].httpStatus;
    const details = diffModels(modelOf(baseSpec()), modelOf(after)).map((c) => c.detail);
    expect(details).toContain('pattern `^[0-9]+(\\.[0-9]{1,8})?$` → `^[0-9]+(\\.[0-9]{1,12})?$` (widened)');
    expect(details).toContain('HTTP status 429 → none');
  });

  it('names the channel builder and address map entry of a changed channel, and ErrorEntry for a changed error', () => {
    const after = baseSpec();
    after.channels.ticks.address = 'ticks-{symbol}-{depth}';
    after['x-errors'].codes[0].name = 'TOO_MANY_REQUESTS';
    const changes = diffModels(modelOf(baseSpec()), modelOf(after));
    expect(changes.find((c) => c.rule === 'channel.address-changed')!.names).toEqual([
      'channels.ticks',
      'TicksAddress',
      "ChannelAddresses['ticks']",
    ]);
    expect(changes.find((c) => c.rule === 'error.name-changed')!.names).toEqual(['ErrorEntry']);
    const renamed = baseSpec();
    renamed.channels.quotes = renamed.channels.ticks;
    delete renamed.channels.ticks;
    renamed.operations.receiveTicks.channel = { $ref: '#/channels/quotes' };
    expect(diffModels(modelOf(baseSpec()), modelOf(renamed))[0]!.names).toEqual([
      'channels.ticks',
      'TicksAddress',
      'TicksChannelPayload',
      "ChannelAddresses['ticks']",
      "ChannelPayloads['ticks']",
    ]);
  });
});

describe('the safety net: nothing that changed is lost', () => {
  const ODD: Array<[what: string, edit: (s: Spec) => void]> = [
    [
      'a reserved error range',
      (s) => {
        s['x-errors'].reserved.push({ from: -32099, to: -32000, purpose: 'Rate-limit errors.' });
      },
    ],
    [
      'a default of a field',
      (s) => {
        S(s).FillsParams.properties.limit.default = 10;
      },
    ],
    [
      'an x-role on a schema',
      (s) => {
        S(s).Tick['x-role'] = 'notification';
      },
    ],
    [
      'a server',
      (s) => {
        s.servers = { prod: { host: 'api.example.com', protocol: 'wss' } };
      },
    ],
    [
      'a format on an inline field',
      (s) => {
        S(s).Fill.properties.fee.format = 'decimal';
      },
    ],
    [
      'a deprecated flag on a field',
      (s) => {
        S(s).Quote.properties.note.deprecated = true;
      },
    ],
  ];
  it.each(ODD)('%s: at least one change', (_what, edit) => {
    const before = baseSpec();
    const after = baseSpec();
    edit(after);
    const [a, b] = [modelOf(before), modelOf(after)];
    const modelled = diffModels(a, b);
    const all = [
      ...modelled,
      ...unmodelled(rawChanges(before, after), before, after, { changes: modelled, models: [a, b] }),
    ];
    expect(all.length, JSON.stringify(rawChanges(before, after))).toBeGreaterThan(0);
  });

  it('a raw change that a model change explains is not reported twice', () => {
    const before = baseSpec();
    const after = baseSpec();
    S(after).Quote.properties.venue = { type: 'string' };
    S(after).Quote.required.push('venue');
    after['x-errors'].codes[0].message = 'Too many requests';
    const [a, b] = [modelOf(before), modelOf(after)];
    const modelled = diffModels(a, b);
    expect(unmodelled(rawChanges(before, after), before, after, { changes: modelled, models: [a, b] })).toEqual([]);
  });
});

describe('the safety net and lists matched by key', () => {
  // @asyncapi/diff compares lists by place: an entry put first shows as an edit of every later place.
  it(
    'an assumption, a limit, a rate-limit class and an error put first are each ' +
      'one added change, no other.changed',
    () => {
      const before = baseSpec();
      const after = baseSpec();
      after['x-assumptions'].unshift({
        id: 'fills-sorted',
        title: 'Fill order',
        choice: 'newest first',
        reason: 'not shown',
      });
      after['x-limits'].unshift({
        id: 'writes',
        title: 'Write budget',
        kind: 'window',
        scope: 'wallet',
        tps: 1,
        windowMs: 5000,
        points: 5,
      });
      after['x-rate-limit-classes'].unshift({ name: 'writes', appliesTo: 'no method yet', budget: 'writes' });
      after['x-errors'].codes.unshift({
        code: 14001,
        name: 'AUTH_INVALID',
        kind: 'auth',
        httpStatus: 401,
        message: 'Invalid signature',
        condition: 'Bad proof.',
      });
      const [a, b] = [modelOf(before), modelOf(after)];
      const modelled = diffModels(a, b);
      expect(modelled.map((c) => c.rule).sort()).toEqual([
        'assumption.added',
        'error.added',
        'limit.added',
        'rate-limit-class.added',
      ]);
      expect(rawChanges(before, after).length).toBeGreaterThan(4);
      expect(unmodelled(rawChanges(before, after), before, after, { changes: modelled, models: [a, b] })).toEqual([]);
    },
  );

  it('an entry that moved and changed is still reported', () => {
    const before = baseSpec();
    const after = baseSpec();
    after['x-limits'].reverse();
    after['x-limits'][0]['x-unit'] = 'sockets';
    const [a, b] = [modelOf(before), modelOf(after)];
    const modelled = diffModels(a, b);
    const other = unmodelled(rawChanges(before, after), before, after, { changes: modelled, models: [a, b] });
    expect([...modelled, ...other].length).toBeGreaterThan(0);
  });
});

describe('the rules table of docs/diff.md', () => {
  const page = readFileSync(new URL('../../../../docs/diff.md', import.meta.url), 'utf8');
  it('lists every rule with its class on each side (the table is the rules, not a copy that drifts)', () => {
    for (const [id, v] of Object.entries(FIXED_RULES))
      expect(page).toContain(`| \`${id}\` | | ${v.client} | ${v.server} | ${v.why} |`);
    for (const [id, byFlow] of Object.entries(FLOW_RULES))
      for (const [flow, v] of Object.entries(byFlow))
        expect(page).toContain(
          `| \`${id}\` | ${flow === 'input' ? 'clients' : 'servers'} | ${v.client} | ${v.server} | ${v.why} |`,
        );
  });

  it('has no row that is not a rule of the code with the same classes and reason (both ways)', () => {
    const start = page.indexOf('\n## The rules\n');
    expect(start, 'docs/diff.md has a "## The rules" section').toBeGreaterThan(-1);
    const section = page.slice(start + 1);
    // The section runs to the next heading of its level or above, or to the end of the page.
    const end = section.search(/\n#{1,2} /);
    const table = end === -1 ? section : section.slice(0, end);
    const rows = table.split('\n').filter((l) => l.startsWith('| `'));
    const expected = [
      ...Object.entries(FIXED_RULES).map(([id, v]) => `| \`${id}\` | | ${v.client} | ${v.server} | ${v.why} |`),
      ...Object.entries(FLOW_RULES).flatMap(([id, byFlow]) =>
        Object.entries(byFlow).map(
          ([flow, v]) =>
            `| \`${id}\` | ${flow === 'input' ? 'clients' : 'servers'} | ${v.client} | ${v.server} | ${v.why} |`,
        ),
      ),
    ];
    expect(rows.filter((r) => !expected.includes(r))).toEqual([]);
    expect(rows).toHaveLength(expected.length);
  });
});
