/**
 * Spec → model. Reads a loaded spec once and produces the plain model every emitter reads.
 * AsyncAPI 3.0 objects used: servers, channels (address, parameters, messages), operations
 * (messages, reply), components (messages, schemas), plus our x- vocabulary (spec/README.md).
 */
import type { LoadedSpec } from '../load/load-spec';
import { toPointer } from '../load/spec-error';
import { cleanSchema, describeType, isNullable, refName, refsOf } from './schema-tools';
import { templateParameters } from './channel-template';
import { channelOf, DefaultsLog, isMethod, methodDefaults, requestOnlyChannels, viewOf, type View } from './plain-spec';
import { channelPayload, specReader, type SpecReader } from './spec-reader';
import { mergeSharedAddresses } from './shared-address';
import { formatsIn, ignoredKeywords, KNOWN_FORMATS, unwrapMultiFormat } from './schema-ajv';
import type {
  ApiModel,
  AssumptionModel,
  ChannelModel,
  FieldModel,
  JsonSchema,
  MethodModel,
  NotShownModel,
  ServerModel,
  TypeKind,
  TypeModel,
  LimitModel,
  ErrorsModel,
  LoginModel,
  ActionSignatureModel,
  RateLimitClassModel,
  RolesModel,
} from './types';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v.trim() : fallback);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const marker = (o: Obj, key: 'x-not-shown' | 'x-assumption'): string | undefined => {
  const v = o[key];
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.join(' ');
  return undefined;
};
const withMarkers = <T extends object>(target: T, o: Obj): T => {
  const notShown = marker(o, 'x-not-shown');
  const assumption = marker(o, 'x-assumption');
  if (notShown !== undefined) (target as { notShown?: string }).notShown = notShown;
  if (assumption !== undefined) (target as { assumption?: string }).assumption = assumption;
  return target;
};

/** A subscription channel of the model, or null for a channel with no address (the RPC socket). */
function buildChannel(id: string, rawChannel: unknown, read: SpecReader): ChannelModel | null {
  const ch = obj(rawChannel);
  if (typeof ch.address !== 'string') return null; // the RPC channel has no address
  const { payload, examples, addresses, exampleInfo, messages } = channelPayload(
    id,
    Object.entries(obj(ch.messages)),
    read,
  );
  if (ch['x-access'] === undefined) read.defaults.applied('access', `channel ${id}`);
  const channel: ChannelModel = {
    id,
    address: ch.address,
    title: str(ch.title, id),
    description: str(ch.description),
    access: ch['x-access'] === 'private' ? 'private' : 'public',
    parameters: templateParameters(ch.address).map((name) => {
      const p = read.resolve(obj(ch.parameters)[name]);
      return { name, description: str(p.description), enum: Array.isArray(p.enum) ? p.enum.map(String) : null };
    }),
    payload,
    examples,
    exampleAddresses: addresses,
    exampleInfo,
    messages,
  };
  return withMarkers(channel, ch);
}

/** The payload of every message of the channel an operation (or its reply) names (none without a channel). */
function channelMessages(op: Obj, fallbackName: string, read: SpecReader) {
  const target = channelOf(op);
  if (target === null) return read.payloadOf(undefined, fallbackName);
  return channelPayload(target, Object.entries(obj(read.resolve(op.channel).messages)), read);
}

/** A method of the model, or null for an operation that is not one (plain-spec.ts says which are). */
function buildMethod(id: string, rawOp: unknown, view: View, read: SpecReader): MethodModel | null {
  const op = obj(rawOp);
  if (!isMethod(id, op, view, read.defaults)) return null;
  const { name, transports, rateLimitClass, auth } = methodDefaults(id, op, read.defaults);
  const reply = obj(op.reply);
  // Without a `messages` list, an operation (or its reply) carries every message of its channel (AsyncAPI 3.0).
  const request = Array.isArray(op.messages)
    ? read.payloadOf(op.messages[0], `${id} request`, ['operations', id, 'messages', '0'])
    : channelMessages(op, `${id} request`, read);
  const response = Array.isArray(reply.messages)
    ? read.payloadOf(reply.messages[0], `${id} reply`, ['operations', id, 'reply', 'messages', '0'])
    : channelMessages(reply, `${id} reply`, read);
  const method: MethodModel = {
    id,
    name,
    summary: str(op.summary),
    description: str(op.description),
    params: request.payload,
    result: response.payload,
    assumedParams: typeof op['x-assumed-params'] === 'string' ? op['x-assumed-params'] : null,
    assumedResult: typeof op['x-assumed-result'] === 'string' ? op['x-assumed-result'] : null,
    rateLimitClass,
    rateLimitBudget: typeof op['x-rate-limit-budget'] === 'string' ? op['x-rate-limit-budget'] : null,
    rateLimitRule: isObj(op['x-rate-limit-rule']) ? (op['x-rate-limit-rule'] as Record<string, string>) : null,
    transports,
    httpPath: typeof op['x-http-path'] === 'string' ? op['x-http-path'] : null,
    auth,
    orderFlow: op['x-order-flow'] === true,
    paramsExamples: request.examples,
    resultExamples: response.examples,
    paramsExampleInfo: request.exampleInfo,
    resultExampleInfo: response.exampleInfo,
    ...(request.messages[0] ? { requestMessage: request.messages[0] } : {}),
    ...(response.messages[0] ? { replyMessage: response.messages[0] } : {}),
  };
  return withMarkers(method, op);
}

/** The subscription channels and the methods, read from whichever side the operations are written. */
function addChannelsAndMethods(model: ApiModel, data: Obj, read: SpecReader): void {
  const view = viewOf(obj(data.operations), data['x-view'], read.defaults);
  const requestOnly = requestOnlyChannels(obj(data.operations), view);
  for (const [id, raw] of Object.entries(obj(data.channels))) {
    const channel = requestOnly.has(id) ? null : buildChannel(id, raw, read);
    if (channel) model.channels.push(channel);
  }
  model.channels = mergeSharedAddresses(model.channels, read.defaults);
  for (const [id, raw] of Object.entries(obj(data.operations))) {
    const method = buildMethod(id, raw, view, read);
    if (method) model.methods.push(method);
  }
}

/** Build the model every emitter reads from a loaded spec. */
export function buildModel(spec: LoadedSpec): ApiModel {
  const data = spec.data;
  const components = obj(data.components);
  const defaults = new DefaultsLog();
  // A named schema may be a multi-format schema: read as JSON Schema (or open, for another format).
  const rawSchemas: Obj = {};
  const origins: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(obj(components.schemas))) {
    const { schema, foreign } = unwrapMultiFormat(raw);
    if (foreign !== null)
      defaults.applied('foreignSchema', `${toPointer(['components', 'schemas', name])} (${foreign})`);
    rawSchemas[name] = schema;
    origins[name] = ['components', 'schemas', name, ...(schema !== raw && foreign === null ? ['schema'] : [])];
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, s] of Object.entries(rawSchemas)) schemas[name] = cleanSchema(s);

  const info = obj(data.info);
  const model: ApiModel = {
    source: spec.file,
    title: str(info.title),
    version: str(info.version),
    description: str(info.description),
    servers: Object.entries(obj(data.servers)).map(([id, s]) => buildServer(id, obj(s))),
    schemas,
    types: Object.entries(rawSchemas).map(([name, s]) => buildType(name, obj(s), rawSchemas)),
    channels: [],
    methods: [],
    errors: buildErrors(obj(data['x-errors'])),
    limits: (Array.isArray(data['x-limits']) ? data['x-limits'] : []).map((l) => buildLimit(obj(l))),
    rateLimitClasses: (Array.isArray(data['x-rate-limit-classes']) ? data['x-rate-limit-classes'] : []).map((c) =>
      buildClass(obj(c)),
    ),
    login: isObj(data['x-login']) ? buildLogin(data['x-login']) : null,
    actionSignature: isObj(data['x-action-signature']) ? buildActionSignature(data['x-action-signature']) : null,
    assumptions: [],
    notShown: [],
    roles: buildRoles(rawSchemas, obj(data.operations)),
    defaults: [],
    exactIntegers: spec.source.exactIntegers(),
  };

  const read = specReader(data, schemas, defaults);
  addChannelsAndMethods(model, data, read);
  for (const [name, raw] of read.hoisted) model.types.push(buildType(name, raw, rawSchemas));
  for (const [name, path] of read.origins) origins[name] = path;
  model.schemaOrigins = origins;
  noteSchemaLeniency(model, rawSchemas, read, defaults);
  if (model.channels.length > 0 && (model.roles.subscribe === null || model.roles.notificationFrame === null))
    defaults.applied('roles', 'the interface as a whole');
  model.defaults = defaults.list();

  model.notShown = collectNotShown(data);
  model.assumptions = collectAssumptions(data);
  return model;
}

/** Note what the validators ignore: keywords no schema vocabulary defines, formats they do not check. */
function noteSchemaLeniency(model: ApiModel, rawSchemas: Obj, read: SpecReader, defaults: DefaultsLog): void {
  const raw: Array<[string, unknown]> = [...Object.entries(rawSchemas), ...read.hoisted];
  for (const [name, s] of raw) {
    const base = model.schemaOrigins?.[name] ?? ['components', 'schemas', name];
    for (const k of ignoredKeywords(s, base))
      defaults.applied('ignoredKeyword', `${k.keyword} at ${toPointer(k.path)}`);
  }
  for (const f of formatsIn(...Object.values(model.schemas)))
    if (!KNOWN_FORMATS.has(f)) defaults.applied('unknownFormat', `format ${f}`);
}

/** Which schema role (`x-role` on a named schema) fills which field of the model's roles. */
const SCHEMA_ROLE_FIELDS = {
  notification: 'notificationFrame',
  request: 'requestFrame',
  response: 'responseFrame',
  error: 'errorObject',
} as const;

/** The roles the spec marks with `x-role` (conventions check each is used once and where it belongs). */
function buildRoles(schemas: Obj, operations: Obj): RolesModel {
  const roles: RolesModel = {
    subscribe: null,
    notificationFrame: null,
    requestFrame: null,
    responseFrame: null,
    errorObject: null,
  };
  for (const [name, s] of Object.entries(schemas)) {
    const role = obj(s)['x-role'];
    if (typeof role === 'string' && Object.hasOwn(SCHEMA_ROLE_FIELDS, role))
      roles[SCHEMA_ROLE_FIELDS[role as keyof typeof SCHEMA_ROLE_FIELDS]] = name;
  }
  for (const [id, op] of Object.entries(operations)) if (obj(op)['x-role'] === 'subscribe') roles.subscribe = id;
  return roles;
}

function buildServer(id: string, s: Obj): ServerModel {
  const variableDefaults: Record<string, string> = {};
  for (const [name, raw] of Object.entries(obj(s.variables))) {
    const v = obj(raw);
    const value = v.default ?? (Array.isArray(v.enum) ? v.enum[0] : undefined);
    if (value !== undefined && value !== null) variableDefaults[name] = String(value);
  }
  return {
    id,
    host: str(s.host),
    protocol: str(s.protocol),
    pathname: str(s.pathname),
    transport: s['x-transport'] === 'http' || /^https?$/.test(str(s.protocol)) ? 'http' : 'ws',
    title: str(s.title, id),
    description: str(s.description),
    variables: Object.keys(obj(s.variables)),
    ...(Object.keys(variableDefaults).length > 0 ? { variableDefaults } : {}),
  };
}

function kindOf(s: Obj): TypeKind {
  if (Array.isArray(s.enum)) return 'enum';
  if (Array.isArray(s.allOf)) return 'record';
  if (isObj(s.properties)) return 'record';
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return 'union';
  const types = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null') : [s.type];
  if (types.length === 1 && types[0] === 'array') return 'array';
  if (types.length >= 1 && types.every((t) => ['string', 'integer', 'number', 'boolean'].includes(t as string)))
    return 'scalar';
  return 'open';
}

function fieldsOf(s: Obj, all: Obj): FieldModel[] {
  if (Array.isArray(s.allOf)) {
    const merged: FieldModel[] = [];
    for (const part of s.allOf) {
      const name = refName(part);
      const target = name ? obj(all[name]) : obj(part);
      for (const f of fieldsOf(target, all)) if (!merged.some((m) => m.name === f.name)) merged.push(f);
    }
    return merged;
  }
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.entries(obj(s.properties)).map(([name, raw]) => {
    const p = obj(raw);
    const clean = cleanSchema(p);
    const field: FieldModel = {
      name,
      required: required.has(name),
      nullable: isNullable(clean),
      type: describeType(clean),
      refs: refsOf(clean),
      description: str(p.description),
    };
    if (p.default !== undefined) field.default = p.default;
    const notShown = marker(p, 'x-not-shown') ?? (isObj(p.items) ? marker(p.items, 'x-not-shown') : undefined);
    if (notShown) field.notShown = notShown;
    return field;
  });
}

function buildType(name: string, s: Obj, all: Obj): TypeModel {
  const kind = kindOf(s);
  const t: TypeModel = {
    name,
    kind,
    description: str(s.description),
    refs: refsOf(cleanSchema(s)),
    examples: Array.isArray(s.examples) ? s.examples : [],
  };
  if (kind === 'enum') t.values = s.enum as Array<string | number>;
  if (kind === 'record') {
    t.fields = fieldsOf(s, all);
    t.open = s.additionalProperties !== false;
  }
  return withMarkers(t, s);
}

function buildErrors(e: Obj): ErrorsModel {
  return {
    reserved: (Array.isArray(e.reserved) ? e.reserved : []).map((r) => {
      const o = obj(r);
      return { from: Number(o.from), to: Number(o.to), purpose: str(o.purpose) };
    }),
    codes: (Array.isArray(e.codes) ? e.codes : []).map((raw) => {
      const c = obj(raw);
      const out: ErrorsModel['codes'][number] = {
        code: Number(c.code),
        message: str(c.message),
        condition: str(c.condition),
      };
      if (typeof c.name === 'string') out.name = c.name;
      if (typeof c.kind === 'string') out.kind = c.kind;
      if (typeof c.httpStatus === 'number') out.httpStatus = c.httpStatus;
      if (typeof c.data === 'string') out.data = c.data;
      if (typeof c.dataPattern === 'string') out.dataPattern = c.dataPattern;
      if (typeof c.textFramePrefix === 'string') out.textFramePrefix = c.textFramePrefix;
      return withMarkers(out, c);
    }),
  };
}

function buildLimit(l: Obj): LimitModel {
  const out: LimitModel = {
    id: str(l.id),
    title: str(l.title, str(l.id)),
    kind: l.kind as LimitModel['kind'],
    scope: str(l.scope),
  };
  for (const k of ['tps', 'windowMs', 'points', 'max', 'refillPerSecond', 'capacity', 'maxBytes'] as const) {
    if (typeof l[k] === 'number') out[k] = l[k] as number;
  }
  if (Array.isArray(l.instrumentTypes)) out.instrumentTypes = l.instrumentTypes.map(String);
  return withMarkers(out, l);
}

function buildClass(c: Obj): RateLimitClassModel {
  return {
    name: str(c.name),
    default: c.default === true,
    appliesTo: str(c.appliesTo),
    budget: str(c.budget),
    methodCount: typeof c.methodCount === 'number' ? c.methodCount : null,
  };
}

function buildLogin(l: Obj): LoginModel {
  const h = obj(l.headers);
  const f = obj(l.freshness);
  return {
    headers: { wallet: str(h.wallet), timestamp: str(h.timestamp), signature: str(h.signature) },
    message: str(l.message),
    freshness: isObj(l.freshness)
      ? withMarkers({ pastMs: Number(f.pastMs), futureMs: Number(f.futureMs), appliesTo: str(f.appliesTo) }, f)
      : null,
    reverifyIntervalMs: typeof obj(l.reverify).intervalMs === 'number' ? (obj(l.reverify).intervalMs as number) : null,
  };
}

function buildActionSignature(a: Obj): ActionSignatureModel {
  const types: ActionSignatureModel['types'] = {};
  for (const [name, fields] of Object.entries(obj(a.types))) {
    types[name] = (Array.isArray(fields) ? fields : []).map((f) => ({
      name: str(obj(f).name),
      type: str(obj(f).type),
    }));
  }
  return withMarkers(
    {
      domain: obj(a.domain),
      primaryType: str(a.primaryType),
      types,
      paramsHash: str(a.paramsHash),
      signatureFields: Array.isArray(a.signatureFields) ? a.signatureFields.map(String) : [],
    },
    a,
  );
}

/** A short human name of a place in the spec, for lists of markers. */
function placeName(path: string[]): string {
  const [top, id, ...rest] = path;
  const tail = rest.filter((k) => !['properties', 'items', 'payload'].includes(k)).join('.');
  const named = (kind: string) => `${kind} ${id}${tail ? '.' + tail : ''}`;
  if (top === 'components' && id === 'schemas')
    return `schema ${rest[0]}${
      rest.length > 1
        ? '.' +
          rest
            .slice(1)
            .filter((k) => !['properties', 'items'].includes(k))
            .join('.')
        : ''
    }`.replace(/\.$/, '');
  if (top === 'channels') return named('channel');
  if (top === 'operations') return named('operation');
  if (top === 'info') return 'the interface as a whole';
  if (top === 'x-limits') return `limit ${id}`;
  if (top === 'x-action-signature') return 'the EIP-712 action signature';
  return path.join('.');
}

function collectNotShown(data: Obj): NotShownModel[] {
  const out: NotShownModel[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (!isObj(node)) return;
    const m = node['x-not-shown'];
    const texts = typeof m === 'string' ? [m] : Array.isArray(m) ? m.map(String) : [];
    const where =
      path[0] === 'x-limits' && isObj(node) && typeof node.id === 'string' ? `limit ${node.id}` : placeName(path);
    for (const text of texts) out.push({ pointer: toPointer([...path, 'x-not-shown']), where, text: text.trim() });
    for (const [k, v] of Object.entries(node)) if (k !== 'x-not-shown') walk(v, [...path, k]);
  };
  walk(data, []);
  return out;
}

function collectAssumptions(data: Obj): AssumptionModel[] {
  const list: AssumptionModel[] = (Array.isArray(data['x-assumptions']) ? data['x-assumptions'] : []).map((raw) => {
    const a = obj(raw);
    return { id: str(a.id), title: str(a.title), choice: str(a.choice), reason: str(a.reason), citedAt: [] };
  });
  const byId = new Map(list.map((a) => [a.id, a]));
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (!isObj(node)) return;
    const id = node['x-assumption'];
    if (typeof id === 'string') byId.get(id)?.citedAt.push(toPointer(path));
    for (const [k, v] of Object.entries(node)) if (k !== 'x-assumptions' || path.length > 0) walk(v, [...path, k]);
  };
  walk(data, []);
  return list;
}
