/**
 * One case per rule of `exchange-api diff`: a small spec, an edit, and the class wanted on each side.
 * Both versions are read into the model as `generate` reads them; the classification comes from the
 * model, never from JSON paths.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diffModels, FIXED_RULES, FLOW_RULES, type Severity } from '../../src/index';
import { rawChanges, unmodelled } from '../../src/diff/raw';
import { baseSpec, modelOf, type Spec } from './base-spec';

type Case = [rule: string, client: Severity, server: Severity, edit: (s: Spec) => void, before?: (s: Spec) => void];
const S = (s: Spec) => s.components.schemas;
const op = (s: Spec, id: string) => s.operations[id];
const newOp = (s: Spec) => {
  s.operations.getBook = { ...structuredClone(op(s, 'getQuote')), 'x-method': 'public/get_book' };
};

const CASES: Case[] = [
  ['channel.removed', 'breaking', 'safe', (s) => { delete s.channels.ticks; delete s.operations.receiveTicks; }],
  ['channel.added', 'safe', 'breaking', (s) => { s.channels.trades = { ...structuredClone(s.channels.ticks), address: 'trades.{symbol}.{depth}' }; s.operations.receiveTrades = { action: 'receive', channel: { $ref: '#/channels/trades' } }; }],
  ['channel.address-changed', 'breaking', 'breaking', (s) => { s.channels.ticks.address = 'ticks-{symbol}-{depth}'; }],
  ['channel.made-private', 'breaking', 'breaking', (s) => { s.channels.ticks['x-access'] = 'private'; }],
  ['channel.made-public', 'safe', 'breaking', (s) => { s.channels.ticks['x-access'] = 'public'; }, (s) => { s.channels.ticks['x-access'] = 'private'; }],
  ['channel.parameter-added', 'breaking', 'breaking', (s) => { s.channels.ticks.address += '.{group}'; s.channels.ticks.parameters.group = { description: 'grouping' }; }],
  ['channel.parameter-removed', 'breaking', 'breaking', (s) => { s.channels.ticks.address = 'ticks.{symbol}'; delete s.channels.ticks.parameters.depth; }],
  ['channel.parameter-value-added', 'safe', 'breaking', (s) => { s.channels.ticks.parameters.depth.enum.push('100'); }],
  ['channel.parameter-value-removed', 'breaking', 'safe', (s) => { s.channels.ticks.parameters.depth.enum = ['1']; }],
  ['channel.parameter-restricted', 'breaking', 'safe', (s) => { s.channels.ticks.parameters.symbol.enum = ['BTC', 'ETH']; }],
  ['channel.parameter-opened', 'safe', 'breaking', (s) => { delete s.channels.ticks.parameters.depth.enum; }],
  ['channel.payload-changed', 'breaking', 'breaking', (s) => { s.components.messages.Tick.payload = { type: 'array', items: { $ref: '#/components/schemas/Tick' } }; }],
  ['method.removed', 'breaking', 'safe', (s) => { delete s.operations.getQuote; }],
  ['method.added', 'safe', 'breaking', newOp],
  ['method.operation-id-changed', 'breaking', 'safe', (s) => { s.operations.fetchQuote = s.operations.getQuote; delete s.operations.getQuote; }],
  ['method.params-changed', 'breaking', 'breaking', (s) => { s.components.messages.QuoteRequest.payload = { $ref: '#/components/schemas/FillsParams' }; }],
  ['method.result-changed', 'breaking', 'breaking', (s) => { s.components.messages.QuoteReply.payload = { $ref: '#/components/schemas/Fill' }; }],
  ['method.transport-removed', 'breaking', 'safe', (s) => { op(s, 'getFills')['x-transports'] = ['ws']; delete op(s, 'getFills')['x-http-path']; }],
  ['method.transport-added', 'safe', 'breaking', (s) => { op(s, 'getQuote')['x-transports'] = ['ws', 'http']; op(s, 'getQuote')['x-http-path'] = '/v1/public/get_quote'; }],
  ['method.http-path-changed', 'breaking', 'breaking', (s) => { op(s, 'getFills')['x-http-path'] = '/v2/private/get_fills'; }],
  ['method.login-required', 'breaking', 'breaking', (s) => { op(s, 'getQuote')['x-auth'] = 'login'; }],
  ['method.login-dropped', 'safe', 'breaking', (s) => { op(s, 'getFills')['x-auth'] = 'none'; }],
  ['method.rate-limit-changed', 'dangerous', 'dangerous', (s) => { op(s, 'getQuote')['x-rate-limit-class'] = 'writes'; }, (s) => { s['x-rate-limit-classes'].push({ name: 'writes', appliesTo: 'orders', budget: 'reads' }); }],
  ['method.order-flow-changed', 'breaking', 'breaking', (s) => { op(s, 'getFills')['x-order-flow'] = true; }],
  ['field.added-required', 'breaking', 'safe', (s) => { S(s).QuoteParams.properties.account = { type: 'string' }; S(s).QuoteParams.required.push('account'); }],
  ['field.added-required', 'safe', 'breaking', (s) => { S(s).Quote.properties.venue = { type: 'string' }; S(s).Quote.required.push('venue'); }],
  ['field.added-optional', 'safe', 'dangerous', (s) => { S(s).QuoteParams.properties.memo = { type: 'string' }; }],
  ['field.added-optional', 'safe', 'safe', (s) => { S(s).Quote.properties.source = { type: 'string' }; }],
  ['field.removed', 'breaking', 'safe', (s) => { delete S(s).Tick.properties.venue; }],
  ['field.removed', 'breaking', 'safe', (s) => { delete S(s).QuoteParams.properties.label; }],
  ['field.made-required', 'breaking', 'safe', (s) => { S(s).QuoteParams.required.push('tif'); }],
  ['field.made-required', 'safe', 'breaking', (s) => { S(s).Quote.required.push('note'); }],
  ['field.made-optional', 'breaking', 'safe', (s) => { S(s).Quote.required = ['price']; }],
  ['field.made-optional', 'safe', 'breaking', (s) => { S(s).QuoteParams.required = ['symbol']; }],
  ['field.made-nullable', 'breaking', 'safe', (s) => { S(s).Quote.properties.note = { type: ['string', 'null'] }; }],
  ['field.made-nullable', 'safe', 'breaking', (s) => { S(s).QuoteParams.properties.label = { type: ['string', 'null'] }; }],
  ['field.made-non-nullable', 'breaking', 'safe', (s) => { S(s).QuoteParams.properties.label = { type: 'string' }; }, (s) => { S(s).QuoteParams.properties.label = { type: ['string', 'null'] }; }],
  ['field.type-changed', 'breaking', 'breaking', (s) => { S(s).Quote.properties.expires = { type: 'string' }; }],
  ['enum.value-added', 'dangerous', 'safe', (s) => { S(s).Side.enum.push('close'); }],
  ['enum.value-added', 'safe', 'breaking', (s) => { S(s).QuoteParams.properties.tif.enum.push('fok'); }],
  ['enum.value-removed', 'breaking', 'safe', (s) => { S(s).QuoteParams.properties.tif.enum = ['gtc']; }],
  ['enum.value-removed', 'breaking', 'breaking', (s) => { S(s).Side.enum = ['buy']; }],
  ['constraint.widened', 'dangerous', 'safe', (s) => { S(s).Price.pattern = '^[0-9]+(\\.[0-9]{1,12})?$'; }],
  ['constraint.narrowed', 'breaking', 'safe', (s) => { S(s).Size.pattern = '^[0-9]+(\\.[0-9]{1,4})?$'; }],
  ['constraint.widened', 'safe', 'breaking', (s) => { S(s).QuoteParams.properties.symbol.maxLength = 64; }],
  ['constraint.narrowed', 'breaking', 'safe', (s) => { S(s).FillsParams.properties.limit.maximum = 50; }],
  ['constraint.narrowed', 'safe', 'breaking', (s) => { S(s).Quote.properties.expires.maximum = 4102444800000; }],
  ['constraint.changed', 'dangerous', 'dangerous', (s) => { S(s).Price.pattern = '^[0-9a-f]+$'; }],
  ['record.opened', 'safe', 'breaking', (s) => { delete S(s).QuoteParams.additionalProperties; }],
  ['record.closed', 'safe', 'breaking', (s) => { S(s).Quote.additionalProperties = false; }],
  ['type.removed', 'breaking', 'safe', (s) => { delete S(s).Legacy; }, (s) => { S(s).Legacy = { type: 'object', properties: { a: { type: 'string' } } }; }],
  ['type.added', 'safe', 'safe', (s) => { S(s).Extra = { type: 'string' }; }],
  ['type.kind-changed', 'breaking', 'breaking', (s) => { S(s).Side = { type: 'string' }; }],
  ['error.removed', 'dangerous', 'safe', (s) => { s['x-errors'].codes.pop(); }],
  ['error.added', 'dangerous', 'dangerous', (s) => { s['x-errors'].codes.push({ code: 11000, name: 'INSUFFICIENT_FUNDS', kind: 'order', httpStatus: 400, message: 'Insufficient funds', condition: 'Margin.' }); }],
  ['error.message-changed', 'dangerous', 'breaking', (s) => { s['x-errors'].codes[0].message = 'Too many requests'; }],
  ['error.name-changed', 'breaking', 'safe', (s) => { s['x-errors'].codes[0].name = 'TOO_MANY_REQUESTS'; }],
  ['error.status-changed', 'dangerous', 'breaking', (s) => { s['x-errors'].codes[1].httpStatus = 403; }],
  ['error.kind-changed', 'dangerous', 'safe', (s) => { s['x-errors'].codes[1].kind = 'request'; }],
  ['limit.tightened', 'dangerous', 'breaking', (s) => { Object.assign(s['x-limits'][0], { tps: 2, points: 10 }); }],
  ['limit.loosened', 'safe', 'breaking', (s) => { s['x-limits'][1].max = 20; }],
  ['limit.added', 'dangerous', 'breaking', (s) => { s['x-limits'].push({ id: 'size', title: 'Frame size', kind: 'size', scope: 'connection', maxBytes: 65536 }); }],
  ['limit.removed', 'safe', 'dangerous', (s) => { s['x-limits'].pop(); }],
  ['limit.changed', 'dangerous', 'dangerous', (s) => { s['x-limits'][0].scope = 'ip'; }],
  ['rate-limit-class.added', 'safe', 'dangerous', (s) => { s['x-rate-limit-classes'].push({ name: 'writes', appliesTo: 'orders', budget: 'reads' }); }],
  ['rate-limit-class.changed', 'dangerous', 'dangerous', (s) => { s['x-rate-limit-classes'][0].appliesTo = 'reads only'; }],
  ['assumption.added', 'dangerous', 'dangerous', (s) => { s['x-assumptions'].push({ id: 'fills-order', title: 'Fill order', choice: 'newest first', reason: 'not shown' }); }],
  ['assumption.removed', 'dangerous', 'dangerous', (s) => { s['x-assumptions'] = []; }],
  ['assumption.changed', 'dangerous', 'dangerous', (s) => { s['x-assumptions'][0].choice = 'microseconds'; }],
];

describe('every rule, on each side', () => {
  it.each(CASES.map((c, i) => [`${c[0]} (#${i + 1}): client ${c[1]}, server ${c[2]}`, c] as const))('%s', (_name, [rule, client, server, edit, prepare]) => {
    const before = baseSpec();
    prepare?.(before);
    const after = structuredClone(before);
    edit(after);
    const changes = diffModels(modelOf(before), modelOf(after));
    const hit = changes.find((c) => c.rule === rule);
    expect(hit, `no ${rule} among: ${changes.map((c) => c.rule).join(', ') || 'nothing'}`).toBeDefined();
    expect({ client: hit!.client, server: hit!.server }).toEqual({ client, server });
    expect(hit!.why.length).toBeGreaterThan(20);
  });

  it('covers at least 30 rules, and every rule of the table but the raw-list ones', () => {
    const tested = new Set(CASES.map((c) => c[0]));
    expect(tested.size).toBeGreaterThanOrEqual(30);
    const untested = [...Object.keys(FIXED_RULES), ...Object.keys(FLOW_RULES)].filter((r) => !tested.has(r));
    // login, the action signature and the raw-list rules have their own tests below and in the own-spec mutations.
    expect(untested.sort()).toEqual(['action-signature.changed', 'info.version-changed', 'login.changed', 'login.window-changed', 'other.changed', 'rate-limit-class.removed']);
  });

  it('an unchanged spec has no change, and a version bump alone is safe on both sides (not "breaking" as @asyncapi/diff says)', () => {
    expect(diffModels(modelOf(baseSpec()), modelOf(baseSpec()))).toEqual([]);
    const before = baseSpec();
    const after = baseSpec();
    after.info.version = '2.0.0';
    const raw = rawChanges(before, after);
    expect(raw).toEqual([{ action: 'edit', path: '/info/version', type: 'breaking' }]);
    const changes = unmodelled(raw, before, after);
    expect(changes.map((c) => [c.rule, c.client, c.server])).toEqual([['info.version-changed', 'safe', 'safe']]);
  });

  it('a change outside the model (a server added) is reported from the raw list as dangerous, not lost; documentation edits are not', () => {
    const before = baseSpec();
    const after = baseSpec();
    after.servers = { prod: { host: 'api.example.com', protocol: 'wss' } };
    after.components.schemas.Tick.description = 'A tick.';
    const changes = unmodelled(rawChanges(before, after), before, after);
    expect(changes.map((c) => [c.rule, c.subject, c.client])).toEqual([['other.changed', '/servers', 'dangerous']]);
  });

  it('a removed field names the generated property to fix; a removed channel its address and payload types', () => {
    const after = baseSpec();
    delete after.components.schemas.Tick.properties.venue;
    delete after.channels.ticks;
    delete after.operations.receiveTicks;
    const names = diffModels(modelOf(baseSpec()), modelOf(after)).flatMap((c) => c.names);
    expect(names).toEqual(expect.arrayContaining(['TicksAddress', 'TicksChannelPayload', 'Tick.venue']));
  });
});

describe('the README', () => {
  it('lists every rule with its class on each side (the table is the rules, not a copy that drifts)', () => {
    const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
    for (const [id, v] of Object.entries(FIXED_RULES)) expect(readme).toContain(`| \`${id}\` | | ${v.client} | ${v.server} | ${v.why} |`);
    for (const [id, byFlow] of Object.entries(FLOW_RULES))
      for (const [flow, v] of Object.entries(byFlow)) expect(readme).toContain(`| \`${id}\` | ${flow === 'input' ? 'clients' : 'servers'} | ${v.client} | ${v.server} | ${v.why} |`);
  });
});
