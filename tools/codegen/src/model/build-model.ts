/**
 * Spec → model. Reads a loaded spec once and produces the plain model every emitter reads.
 * AsyncAPI 3.0 objects used: servers, channels (address, parameters, messages), operations
 * (messages, reply), components (messages, schemas), plus our x- vocabulary (spec/README.md); each
 * part is built in its own file (build-surface, build-types, build-tables, build-auth, marker-lists).
 */
import type { LoadedSpec } from '../load/load-spec';
import { toPointer } from '../load/spec-error';
import { isRef, type Obj, type Operation, type Ref, type SpecDocument } from '../load/spec-types';
import { cleanSchema } from './schema-tools';
import { DefaultsLog, requestOnlyChannels, viewOf } from './plain-spec';
import { specReader, type SpecReader } from './spec-reader';
import { mergeSharedAddresses } from './shared-address';
import { formatsIn, ignoredKeywords, KNOWN_FORMATS, unwrapMultiFormat } from './schema-ajv';
import { buildActionSignature, buildLogin } from './build-auth';
import { buildChannel, buildMethod, buildServer, receivedMessages } from './build-surface';
import { buildType } from './build-types';
import { channelGroups } from './build-groups';
import { buildClass, buildErrors, buildLimit } from './build-tables';
import { collectAssumptions, collectNotShown } from './marker-lists';
import { obj, str } from './read-values';
import { buildWire, framingOf } from './wire';
import type { ApiModel, JsonSchema, RolesModel } from './types';

/** The subscription channels and the methods, read from whichever side the operations are written. */
function addChannelsAndMethods(model: ApiModel, data: SpecDocument, read: SpecReader): void {
  const operations = data.operations ?? {};
  const view = viewOf(operations, data['x-view'], read.defaults);
  const requestOnly = requestOnlyChannels(operations, view);
  const received = receivedMessages(operations, view);
  const groups = channelGroups(operations, view, read);
  for (const [id, raw] of Object.entries(data.channels ?? {})) {
    const channel = requestOnly.has(id) ? null : buildChannel(id, raw, read, received.get(id));
    const group = groups.get(id);
    if (channel) model.channels.push(group === undefined ? channel : { ...channel, group });
  }
  model.channels = mergeSharedAddresses(model.channels, read.defaults);
  for (const [id, raw] of Object.entries(operations)) {
    const method = buildMethod(id, raw, view, read);
    if (method) model.methods.push(method);
  }
  const { framing, reason } = framingOf(data);
  if (framing !== 'messages') return;
  if (reason !== 'x-framing') read.defaults.applied('framing', reason);
  model.wire = buildWire(data, view, read, model.schemas, reason);
}

/** Build the model every emitter reads from a loaded spec. */
export function buildModel(spec: LoadedSpec): ApiModel {
  const data = spec.data;
  const defaults = new DefaultsLog();
  // A named schema may be a multi-format schema: read as JSON Schema (or open, for another format).
  const rawSchemas: Obj = {};
  const origins: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(data.components?.schemas ?? {})) {
    const { schema, foreign } = unwrapMultiFormat(raw);
    if (foreign !== null)
      defaults.applied('foreignSchema', `${toPointer(['components', 'schemas', name])} (${foreign})`);
    rawSchemas[name] = schema;
    origins[name] = ['components', 'schemas', name, ...(schema !== raw && foreign === null ? ['schema'] : [])];
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, s] of Object.entries(rawSchemas)) schemas[name] = cleanSchema(s);

  const model: ApiModel = {
    source: spec.file,
    title: str(data.info.title),
    version: str(data.info.version),
    description: str(data.info.description),
    servers: Object.entries(data.servers ?? {}).map(([id, s]) => buildServer(id, s)),
    schemas,
    types: Object.entries(rawSchemas).map(([name, s]) => buildType(name, obj(s), rawSchemas)),
    channels: [],
    methods: [],
    errors: buildErrors(data['x-errors'] ?? {}),
    limits: (data['x-limits'] ?? []).map(buildLimit),
    rateLimitClasses: (data['x-rate-limit-classes'] ?? []).map(buildClass),
    login: data['x-login'] ? buildLogin(data['x-login']) : null,
    actionSignature: data['x-action-signature'] ? buildActionSignature(data['x-action-signature']) : null,
    assumptions: [],
    notShown: [],
    roles: buildRoles(rawSchemas, data.operations ?? {}),
    defaults: [],
    exactIntegers: spec.source.exactIntegers(),
  };

  const read = specReader(data, schemas, defaults);
  addChannelsAndMethods(model, data, read);
  for (const [name, raw] of read.hoisted) model.types.push(buildType(name, raw, rawSchemas));
  for (const [name, path] of read.origins) origins[name] = path;
  model.schemaOrigins = origins;
  noteSchemaLeniency(model, rawSchemas, read, defaults);
  if (
    !model.wire &&
    model.channels.length > 0 &&
    (model.roles.subscribe === null || model.roles.notificationFrame === null)
  )
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
function buildRoles(schemas: Obj, operations: Record<string, Operation | Ref>): RolesModel {
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
  for (const [id, op] of Object.entries(operations))
    if (!isRef(op) && op['x-role'] === 'subscribe') roles.subscribe = id;
  return roles;
}
