/**
 * The examples the site shows: taken from the spec, wrapped in their wire frames, and validated against
 * the spec's schemas before anything is written. An example that does not validate stops generation.
 */
import type { ValidateFunction } from 'ajv';
import type { ApiModel, ChannelModel, JsonSchema, MethodModel } from '../../model/types';
import { templateParameters, templatePattern } from '../../model/channel-template';
import { formatsIn, schemaAjv } from '../../model/schema-ajv';
import { DEFAULT_FRAMES } from '../../model/plain-spec';
import { isObj, type Obj } from '../../load/spec-types';

/** A channel's example notification. */
export interface ChannelExample {
  /** The address with its parameters filled in, e.g. `orderbook.ETH-PERP.10.10`. */
  address: string;
  frame: unknown;
  /** Set when the spec has no example for this channel and one of a channel with the same payload is shown. */
  borrowedFrom: ChannelModel | null;
}

/** A method's example request and reply frames; null where the spec has no example. */
export interface MethodExample {
  request: unknown | null;
  reply: unknown | null;
}

/** Every example of the site, validated. */
export interface Examples {
  channels: Map<string, ChannelExample | null>;
  methods: Map<string, MethodExample>;
  /** Examples of named schemas, by schema name. */
  schemas: Map<string, unknown[]>;
}

/** Rewrites the model's local refs so they resolve inside the one compiled root schema. */
function rooted(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rooted);
  if (!isObj(schema)) return schema;
  const out: Obj = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/') ? `api${v}` : rooted(v);
  }
  return out;
}

class Checker {
  // The validators' own ajv: the same formats checked, the same keywords ignored, nothing printed
  // (without the optimising pass: each validator checks a few examples).
  private readonly ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly model: ApiModel) {
    this.ajv = schemaAjv({ formats: formatsIn(model), unoptimized: true });
    this.ajv.addSchema({ $id: 'api', definitions: model.schemas });
  }

  has(name: string): boolean {
    return name in this.model.schemas;
  }

  check(schema: JsonSchema, value: unknown, place: string): void {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      const ref = typeof schema.$ref === 'string' && Object.keys(schema).length === 1 ? `api${schema.$ref}` : null;
      validate = ref ? this.ajv.getSchema(ref) : this.ajv.compile(rooted(schema) as JsonSchema);
      if (!validate) throw new Error(`example ${place}: its schema ${String(schema.$ref)} does not exist`);
      this.cache.set(key, validate);
    }
    if (validate(value)) return;
    const why = (validate.errors ?? [])
      .slice(0, 3)
      .map(
        (e) =>
          `${e.instancePath || '/'} ${e.message ?? e.keyword}` +
          (e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''),
      )
      .join('; ');
    throw new Error(`invalid example: ${place}: ${why}`);
  }

  named(name: string, value: unknown, place: string): void {
    this.check({ $ref: `#/definitions/${name}` }, value, place);
  }
}

/** Every string in a value, object keys included, in document order. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isObj(value))
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  return out;
}

/** The first scalar stored under `key` anywhere in a value (breadth first). */
function findKey(value: unknown, key: string): string | null {
  const queue: unknown[] = [value];
  while (queue.length > 0) {
    const v = queue.shift();
    if (Array.isArray(v)) queue.push(...v);
    else if (isObj(v)) {
      const hit = v[key];
      if (typeof hit === 'string' || typeof hit === 'number') return String(hit);
      queue.push(...Object.values(v));
    }
  }
  return null;
}

/**
 * Fills a channel's address for its example frame. Prefers an address the spec itself writes (in a
 * subscribe example, say) that agrees with the payload; otherwise takes each parameter from the payload,
 * from an enumeration value the payload mentions, from the first allowed value, or from any example.
 */
export function exampleAddress(channel: ChannelModel, payload: unknown, pool: unknown[]): string {
  // Captures follow the order the parameters stand in the template.
  const names = templateParameters(channel.address);
  const re = templatePattern(channel);
  const fits = (name: string, value: string) => {
    const p = channel.parameters.find((x) => x.name === name);
    if (p?.enum && !p.enum.includes(value)) return false;
    const own = findKey(payload, name);
    return own === null || own === value;
  };
  for (const s of strings(pool)) {
    const m = re.exec(s);
    if (m && names.every((n, i) => fits(n, m[i + 1]!))) return s;
  }
  const words = new Set(strings(payload).flatMap((s) => s.toLowerCase().split(/[^a-z0-9]+/)));
  return channel.address.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const p = channel.parameters.find((x) => x.name === name);
    const own = findKey(payload, name);
    if (own !== null && (!p?.enum || p.enum.includes(own))) return own;
    if (p?.enum) return p.enum.find((v) => /[a-z]/i.test(v) && words.has(v.toLowerCase())) ?? p.enum[0] ?? whole;
    return findKey(pool, name) ?? whole;
  });
}

/**
 * The method name of pushed frames, read from the spec's notification frame schema (`x-role:
 * notification`) so the docs show what the spec says, not a copy; without such a schema, the frame
 * the client assumes (DEFAULT_FRAMES); null when the spec's frame fixes no method name.
 */
export function notificationMethod(model: ApiModel): string | null {
  const frame = model.roles.notificationFrame;
  if (frame === null) return DEFAULT_FRAMES.notification;
  const method = (model.schemas[frame]?.properties as Record<string, { const?: unknown }> | undefined)?.method?.const;
  return typeof method === 'string' ? method : null;
}

/** Collects and validates every example; throws an Error naming the first invalid one. */
export function collectExamples(model: ApiModel): Examples {
  const checker = new Checker(model);
  const result: Examples = { channels: new Map(), methods: new Map(), schemas: new Map() };

  for (const t of model.types) {
    t.examples.forEach((ex, i) => checker.named(t.name, ex, `schema ${t.name} example ${i + 1}`));
    if (t.examples.length > 0) result.schemas.set(t.name, t.examples);
  }

  const pool: unknown[] = [
    ...model.channels.flatMap((c) => c.examples),
    ...model.methods.flatMap((m) => [...m.paramsExamples, ...m.resultExamples]),
    ...model.types.flatMap((t) => t.examples),
  ];

  for (const c of model.channels) {
    c.examples.forEach((ex, i) =>
      checker.check(c.payload.schema, ex, `channel ${c.id} (${c.address}) example ${i + 1}`),
    );
  }
  for (const c of model.channels) result.channels.set(c.id, channelExample(model, c, checker, pool));
  for (const m of model.methods) result.methods.set(m.id, methodExample(model, m, checker));
  return result;
}

/**
 * A channel's example frame: its own first example, else (none of its own) the first of a channel
 * with the same payload, checked against this channel's payload; null when there is neither.
 */
function channelExample(model: ApiModel, c: ChannelModel, checker: Checker, pool: unknown[]): ChannelExample | null {
  let payload: unknown;
  let borrowedFrom: ChannelModel | null = null;
  if (c.examples.length > 0) payload = c.examples[0];
  else if (c.payload.record !== null) {
    borrowedFrom =
      model.channels.find(
        (o) =>
          o !== c &&
          o.examples.length > 0 &&
          o.payload.record === c.payload.record &&
          o.payload.array === c.payload.array,
      ) ?? null;
    if (borrowedFrom) {
      payload = borrowedFrom.examples[0];
      checker.check(
        c.payload.schema,
        payload,
        `channel ${c.id} (${c.address}) example borrowed from channel ${borrowedFrom.id}`,
      );
    }
  }
  if (payload === undefined) return null;
  const recorded = borrowedFrom === null ? (c.exampleAddresses?.[0] ?? null) : null;
  const address = recorded ?? exampleAddress(c, payload, pool);
  const method = notificationMethod(model);
  const frame = {
    jsonrpc: '2.0',
    ...(method === null ? {} : { method }),
    params: { channel: address, data: payload },
  };
  const frameSchema = model.roles.notificationFrame;
  if (frameSchema && checker.has(frameSchema))
    checker.named(frameSchema, frame, `channel ${c.id} (${c.address}) example frame`);
  return { address, frame, borrowedFrom };
}

/** A method's example request and reply frames, each checked against the spec's frame schema when it names one. */
function methodExample(model: ApiModel, m: MethodModel, checker: Checker): MethodExample {
  checkMethod(checker, m);
  const request =
    m.paramsExamples.length > 0 ? { jsonrpc: '2.0', id: 1, method: m.name, params: m.paramsExamples[0] } : null;
  const reply = m.resultExamples.length > 0 ? { jsonrpc: '2.0', id: 1, result: m.resultExamples[0] } : null;
  const { requestFrame, responseFrame } = model.roles;
  if (request && requestFrame && checker.has(requestFrame))
    checker.named(requestFrame, request, `method ${m.name} example request frame`);
  if (reply && responseFrame && checker.has(responseFrame))
    checker.named(responseFrame, reply, `method ${m.name} example reply frame`);
  return { request, reply };
}

function checkMethod(checker: Checker, m: MethodModel): void {
  m.paramsExamples.forEach((ex, i) => {
    const place = `method ${m.name} params example ${i + 1}`;
    checker.check(m.params.schema, ex, place);
    if (m.assumedParams) checker.named(m.assumedParams, ex, `${place} (assumed ${m.assumedParams})`);
  });
  m.resultExamples.forEach((ex, i) => {
    const place = `method ${m.name} result example ${i + 1}`;
    checker.check(m.result.schema, ex, place);
    if (m.assumedResult) checker.named(m.assumedResult, ex, `${place} (assumed ${m.assumedResult})`);
  });
}
