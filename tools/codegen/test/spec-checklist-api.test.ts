/**
 * Spec checklist (issue 2), channels and methods: holds spec/asyncapi.yaml against a checklist written by hand from the
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
import { CHANNELS, METHODS, CLASSES } from './checklist/document-tables';
import {
  type Obj,
  isObj,
  raw,
  field,
  validator,
  baseType,
  channelByAddress,
  methodByName,
  methodByDocumentName,
  fromDocument,
  model,
  loadChecklist,
} from './checklist/reader';

beforeAll(loadChecklist);

// ================================================================================================
// Channels
// ================================================================================================

describe('channels', () => {
  it('the spec has exactly the 13 channels of the Events table, besides those marked as from the clients', () => {
    expect(CHANNELS).toHaveLength(13);
    const documented = model.channels.filter((c) => fromDocument('channels', c.id));
    expect(documented.map((c) => c.address).sort()).toEqual(CHANNELS.map((c) => c.address).sort());
  });

  it('a channel the document does not name says it comes from the clients and cites its assumption', () => {
    for (const c of model.channels.filter((x) => !fromDocument('channels', x.id))) {
      expect(raw('channels', c.id, 'x-source'), c.address).toBe('clients');
      expect(c.assumption, `${c.address} cites the assumption that names the clients`).toBeTruthy();
    }
  });

  it.each(CHANNELS)('$address: $access, payload $record (array $array)', (row) => {
    const c = channelByAddress(row.address);
    // The model defaults a missing x-access to public: read the raw value too.
    expect(raw('channels', c.id, 'x-access')).toBe(row.access);
    expect(c.access).toBe(row.access);
    expect(c.payload.record).toBe(row.record);
    expect(c.payload.array).toBe(row.array);
    expect(c.parameters.map((p) => [p.name, p.enum])).toEqual(row.params);
    // Every parameter of the template is declared in the channel.
    const declared = raw('channels', c.id, 'parameters');
    for (const [name] of row.params)
      expect(isObj(declared) && name in declared, `parameter ${name} declared`).toBe(true);
    // "All channels are reached at /v3/ws": the channel's servers are the WebSocket deployments.
    const servers = (raw('channels', c.id, 'servers') as Obj[] | undefined) ?? [];
    expect(servers.map((s) => s.$ref).sort()).toEqual(['#/servers/production', '#/servers/testnet']);
  });

  it('every channel has a receive operation', () => {
    const received = Object.values(raw('operations') as Obj)
      .filter((op) => isObj(op) && op.action === 'receive')
      .map((op) => String((op as { channel: Obj }).channel.$ref));
    for (const c of model.channels) expect(received, c.address).toContain(`#/channels/${c.id}`);
  });
});

// ================================================================================================
// Methods
// ================================================================================================

describe('methods', () => {
  it(
    'the spec describes exactly the 13 methods the document names (by their rate-limit ' +
      'keys), besides those from the clients',
    () => {
      const documented = model.methods.filter((m) => fromDocument('operations', m.id));
      expect(documented.map((m) => m.rateLimitKey).sort()).toEqual(METHODS.map((m) => m.name).sort());
    },
  );

  it('a method the document does not name says it comes from the clients, cites its assumption and only reads', () => {
    const fromClients = model.methods.filter((m) => !fromDocument('operations', m.id));
    expect(fromClients.length).toBeGreaterThan(0);
    for (const m of fromClients) {
      expect(m.source, m.name).toBe('clients');
      expect(m.assumption, `${m.name} cites the assumption that names the clients`).toBeTruthy();
      // Nothing the clients call beyond the document changes state: the document's own counts stay true.
      expect(m.rateLimitClass, m.name).toBe('non_matching');
      expect(m.orderFlow, m.name).toBe(false);
    }
  });

  it('a prefixed wire name keeps the short name of the rate-limit tables as its key', () => {
    for (const m of model.methods.filter((x) => x.rateLimitKey !== x.name))
      expect(m.name, m.rateLimitKey).toMatch(new RegExp(`^(public|private)/${m.rateLimitKey}$`));
  });

  it.each(METHODS)('$name: class $rateLimitClass, transports $transports', (row) => {
    const m = methodByDocumentName(row.name);
    // The model fills defaults for missing keys: the raw operation must state them.
    expect(raw('operations', m.id, 'x-rate-limit-class')).toBe(row.rateLimitClass);
    expect(m.rateLimitClass).toBe(row.rateLimitClass);
    const rawTransports = raw('operations', m.id, 'x-transports');
    expect(Array.isArray(rawTransports) && rawTransports.length > 0).toBe(true);
    for (const t of m.transports) expect(['ws', 'http']).toContain(t);
    if (row.transports) expect([...m.transports].sort()).toEqual([...row.transports].sort());
    if (row.httpPath !== undefined) expect(m.httpPath).toBe(row.httpPath);
    // An HTTP path is `/v3/<public or private>/<method>`.
    expect(m.transports.includes('http')).toBe(m.httpPath !== null);
    if (m.httpPath !== null) expect(m.httpPath).toMatch(/^\/v3\/(public|private)\/[A-Za-z_]+$/);
    if (m.httpPath !== null && m.name.includes('/')) expect(m.httpPath).toBe(`/v3/${m.name}`);
    if (row.auth) expect(raw('operations', m.id, 'x-auth')).toBe(row.auth);
    if (row.notShown) expect(m.notShown, `${row.name}: paths and payloads not shown`).toBeTruthy();
  });

  it('cancel_all has its own per-(wallet, method) budget', () => {
    const m = methodByDocumentName('cancel_all');
    expect(m.rateLimitBudget).toBe('cancel_all');
    expect(model.limits.find((l) => l.id === 'cancel_all')?.scope).toBe('wallet-method');
  });

  it('cancel_by_label: matching budget for a single instrument, otherwise a dedicated per-method budget', () => {
    const rule = methodByDocumentName('cancel_by_label').rateLimitRule;
    expect(rule?.singleInstrument).toBe('matching');
    const other = model.limits.find((l) => l.id === rule?.otherwise);
    expect(other, `budget ${rule?.otherwise}`).toBeTruthy();
    expect(other?.scope).toBe('wallet-method');
    expect(other?.notShown, 'its value is not shown').toBeTruthy();
    expect(other?.assumption).toBeTruthy();
  });

  it('public/get_all_live_instruments has no per-request decrement', () => {
    expect(methodByName('public/get_all_live_instruments').rateLimitRule).toEqual({ decrement: 'none' });
  });

  it.each([...CLASSES])('class $name counts $methodCount methods of the 100', (c) => {
    const m = model.rateLimitClasses.find((x) => x.name === c.name);
    expect(m, c.name).toBeTruthy();
    expect(m?.methodCount).toBe(c.methodCount);
    expect(m?.default).toBe(c.default);
    if (c.budget) expect(m?.budget).toBe(c.budget);
  });

  it('there are exactly the four classes and their counts sum to 100', () => {
    expect(model.rateLimitClasses.map((c) => c.name).sort()).toEqual(CLASSES.map((c) => c.name).sort());
    expect(model.rateLimitClasses.reduce((n, c) => n + (c.methodCount ?? 0), 0)).toBe(100);
  });

  it.each(['matching', 'endpoint', 'custom'] as const)(
    'every %s method the document names is in the spec with that class',
    (cls) => {
      const expected = CLASSES.find((c) => c.name === cls)!.methodCount;
      expect(model.methods.filter((m) => m.rateLimitClass === cls)).toHaveLength(expected);
    },
  );

  it("subscribe takes channels (array of addresses); unsubscribe's channels is optional and may be null", () => {
    const sub = methodByName('subscribe');
    expect(sub.params.record).toBe('SubscribeParams');
    expect(field('SubscribeParams', 'channels')).toMatchObject({ required: true, type: 'array of string' });
    const unsub = methodByName('unsubscribe');
    expect(unsub.params.record).toBe('UnsubscribeParams');
    // Left out or null (derive-ts sends null), it drops every subscription.
    expect(field('UnsubscribeParams', 'channels')).toMatchObject({ required: false, nullable: true });
    expect(validator('UnsubscribeParams')({})).toBe(true);
    expect(validator('UnsubscribeParams')({ channels: null })).toBe(true);
    expect(validator('UnsubscribeParams')({ channels: ['trades.ETH-PERP'] })).toBe(true);
  });

  it(
    'public/login: params wallet, timestamp (decimal string of ms), signature ' +
      '(65-byte hex); result an array of integer ids',
    () => {
      const m = methodByName('public/login');
      expect(m.params.record).toBe('PublicLoginParams');
      expect(baseType(field('PublicLoginParams', 'wallet'))).toBe('Address');
      // A decimal string of milliseconds; as an input, by the decimal convention, the same whole number as a
      // JSON number too.
      expect(baseType(field('PublicLoginParams', 'timestamp'))).toBe('LoginTimestampInput');
      expect(baseType(field('PublicLoginParams', 'signature'))).toBe('HexSignature');
      expect(raw('components', 'schemas', 'HexSignature', 'pattern')).toBe('^0x[0-9a-fA-F]{130}$');
      const ts = validator('PublicLoginParams');
      expect(ts({ timestamp: '1767225600000' })).toBe(true);
      expect(ts({ timestamp: '17672256.5' })).toBe(false);
      expect(ts({ timestamp: 1767225600000 })).toBe(true);
      expect(ts({ timestamp: 17672256.5 })).toBe(false);
      expect(m.result).toMatchObject({ record: 'Int64', array: true });
    },
  );

  it('public/getRateLimits: params empty or null, result RateLimitsResult', () => {
    const m = methodByName('public/getRateLimits');
    const v = validator(m.params.record ?? '');
    expect(v({})).toBe(true);
    expect(v(null)).toBe(true);
    expect(v({ anything: 1 })).toBe(false);
    expect(m.result).toMatchObject({ record: 'RateLimitsResult', array: false });
  });

  it('private/get_subaccounts: body an object with wallet (address)', () => {
    const m = methodByName('private/get_subaccounts');
    expect(m.params.record).toBe('GetSubaccountsParams');
    expect(field('GetSubaccountsParams', 'wallet')).toMatchObject({ required: true, type: 'Address' });
  });

  it('JSON-RPC requests require id, method and params; headers is optional and nullable', () => {
    const required = raw('components', 'schemas', 'JsonRpcRequest', 'required') as string[];
    expect(required).toEqual(expect.arrayContaining(['id', 'method', 'params']));
    const headers = field('JsonRpcRequest', 'headers');
    expect(headers.required).toBe(false);
    expect(headers.nullable).toBe(true);
    expect(baseType(field('JsonRpcRequest', 'id'))).toBe('JsonRpcId');
    const response = validator('JsonRpcResponse');
    expect(response({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(response({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Rate limit exceeded' } })).toBe(true);
    expect(response({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } })).toBe(false);
  });
});
