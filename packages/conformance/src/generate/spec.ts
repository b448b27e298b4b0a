/**
 * The spec a generated run reads: any AsyncAPI 3.0 document whose request/reply operations are JSON-RPC
 * methods. Without --spec it is the spec this package's tables were generated from (a clone's
 * spec/asyncapi.yaml, else the copy @exchange-api/types ships). Our x- extensions refine it where present
 * (x-method, x-transports, x-http-path, x-auth, x-order-flow, x-assumed-params/-result, x-errors, x-limits);
 * without them the generic defaults below apply.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';

/** A JSON Schema as read from the spec ($refs point into the document). */
export type Schema = Record<string, unknown> | boolean;

/** One JSON-RPC method as the generator sees it. */
export interface GenMethod {
  id: string;
  name: string;
  transports: ('ws' | 'http')[];
  httpPath: string | null;
  auth: 'none' | 'login';
  orderFlow: boolean;
  /** The params schema inputs are generated from (the assumed one where the spec names it). */
  params: Schema | null;
  result: Schema | null;
  /** The spec leaves these open and assumes them: findings about them are should-level notes. */
  assumedParams: boolean;
  assumedResult: boolean;
  rateLimitClass: string | null;
}

/** One channel address template, its parameters and its payload. */
export interface GenChannel {
  id: string;
  address: string;
  access: 'public' | 'private';
  parameters: { name: string; enum: string[] | null }[];
  payload: Schema | null;
}

/** A documented error code. */
export interface GenError {
  code: number;
  name: string;
  kind: string;
}

/** A window budget of the spec's limit table. */
export interface GenLimit {
  id: string;
  scope: string;
  points: number;
  windowMs: number;
}

/** What the generator knows of one spec. */
export interface GenSpec {
  file: string;
  title: string;
  version: string;
  doc: Record<string, unknown>;
  methods: GenMethod[];
  channels: GenChannel[];
  errors: GenError[];
  /** Whether the spec has its own error table (x-errors); without one only JSON-RPC 2.0's codes are known. */
  ownErrorTable: boolean;
  limits: GenLimit[];
  /** Budget id of each rate-limit class (x-rate-limit-classes). */
  classBudgets: Record<string, string>;
  /** The class of methods the spec names no class for (`default: true`), when it marks one. */
  defaultClass: string | null;
  subscribe: string;
  unsubscribe: string;
}

/** JSON-RPC 2.0's own codes, documented by JSON-RPC itself for any server. */
export const JSONRPC_CODES: GenError[] = [
  { code: -32700, name: 'PARSE_ERROR', kind: 'request' },
  { code: -32600, name: 'INVALID_REQUEST', kind: 'request' },
  { code: -32601, name: 'METHOD_NOT_FOUND', kind: 'request' },
  { code: -32602, name: 'INVALID_PARAMS', kind: 'request' },
  { code: -32603, name: 'INTERNAL_ERROR', kind: 'server' },
];

/** The spec a run reads when no --spec is given: the clone's, else the one @exchange-api/types ships. */
export function defaultSpecFile(cwd = process.cwd()): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const f = join(dir, 'spec', 'asyncapi.yaml');
    if (existsSync(f) && existsSync(join(dir, 'packages', 'types'))) return f;
    if (dirname(dir) === dir) break;
  }
  try {
    // No import.meta here: this package is also built as CommonJS, where it is a syntax error.
    const from = typeof __filename === 'string' ? __filename : join(resolve(cwd), 'package.json');
    const types = createRequire(from).resolve('@exchange-api/types/package.json');
    const f = join(dirname(types), 'dist', 'asyncapi.yaml');
    return existsSync(f) ? f : null;
  } catch {
    return null;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follow a local $ref ('#/a/b') in the document. */
export function deref(doc: Record<string, unknown>, v: unknown, depth = 0): unknown {
  if (!isObj(v) || typeof v.$ref !== 'string' || depth > 32) return v;
  const ref = v.$ref;
  if (!ref.startsWith('#/')) return v;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObj(node) ? node[key] : undefined;
  }
  return deref(doc, node, depth + 1);
}

/** The payload schema of a message reference (null when it has none). */
function payloadOf(doc: Record<string, unknown>, msgRef: unknown): Schema | null {
  const msg = deref(doc, msgRef);
  return isObj(msg) && msg.payload !== undefined ? (msg.payload as Schema) : null;
}

/** A schema by name from components.schemas, as a $ref (null when the spec has none of that name). */
function schemaRef(doc: Record<string, unknown>, name: unknown): Schema | null {
  const schemas = (doc.components as Record<string, unknown> | undefined)?.schemas;
  return typeof name === 'string' && isObj(schemas) && name in schemas
    ? { $ref: `#/components/schemas/${name}` }
    : null;
}

function methodOf(doc: Record<string, unknown>, id: string, op: Record<string, unknown>): GenMethod | null {
  if (!isObj(op.reply)) return null;
  if (op['x-role'] === 'notification') return null;
  const messages = Array.isArray(op.messages) ? op.messages : [];
  const replies = Array.isArray(op.reply.messages) ? op.reply.messages : [];
  const transports = Array.isArray(op['x-transports'])
    ? (op['x-transports'] as string[]).filter((t): t is 'ws' | 'http' => t === 'ws' || t === 'http')
    : ['ws' as const];
  const assumedParams = schemaRef(doc, op['x-assumed-params']);
  const assumedResult = schemaRef(doc, op['x-assumed-result']);
  return {
    id,
    name: typeof op['x-method'] === 'string' ? op['x-method'] : id,
    transports,
    httpPath: typeof op['x-http-path'] === 'string' ? op['x-http-path'] : null,
    auth: op['x-auth'] === 'login' ? 'login' : 'none',
    orderFlow: op['x-order-flow'] === true,
    params: assumedParams ?? (messages.length ? payloadOf(doc, messages[0]) : null),
    result: assumedResult ?? (replies.length ? payloadOf(doc, replies[0]) : null),
    assumedParams: assumedParams !== null,
    assumedResult: assumedResult !== null,
    rateLimitClass: typeof op['x-rate-limit-class'] === 'string' ? op['x-rate-limit-class'] : null,
  };
}

function channelsOf(doc: Record<string, unknown>): GenChannel[] {
  const out: GenChannel[] = [];
  for (const [id, raw] of Object.entries(isObj(doc.channels) ? doc.channels : {})) {
    const ch = deref(doc, raw);
    if (!isObj(ch) || typeof ch.address !== 'string') continue;
    const params = isObj(ch.parameters) ? ch.parameters : {};
    const messages = isObj(ch.messages) ? Object.values(ch.messages) : [];
    out.push({
      id,
      address: ch.address,
      access: ch['x-access'] === 'private' ? 'private' : 'public',
      parameters: Object.entries(params).map(([name, p]) => {
        const d = deref(doc, p);
        const values = isObj(d) && Array.isArray(d.enum) ? d.enum.map(String) : null;
        return { name, enum: values };
      }),
      payload: messages.length ? payloadOf(doc, messages[0]) : null,
    });
  }
  return out;
}

function errorsOf(doc: Record<string, unknown>): { errors: GenError[]; own: boolean } {
  const table = isObj(doc['x-errors']) ? doc['x-errors'] : null;
  const codes = table && Array.isArray(table.codes) ? table.codes.filter(isObj) : [];
  const own = codes
    .filter((c) => Number.isInteger(c.code))
    .map((c) => ({ code: c.code as number, name: String(c.name ?? c.code), kind: String(c.kind ?? '') }));
  const merged = [...own, ...JSONRPC_CODES.filter((j) => !own.some((o) => o.code === j.code))];
  return { errors: merged, own: own.length > 0 };
}

function limitsOf(doc: Record<string, unknown>): Pick<GenSpec, 'limits' | 'classBudgets' | 'defaultClass'> {
  const limits = (Array.isArray(doc['x-limits']) ? doc['x-limits'] : [])
    .filter(isObj)
    .filter((l) => l.kind === 'window' && typeof l.points === 'number' && typeof l.windowMs === 'number')
    .map((l) => ({
      id: String(l.id),
      scope: String(l.scope),
      points: l.points as number,
      windowMs: l.windowMs as number,
    }));
  const classBudgets: Record<string, string> = {};
  const classes = (Array.isArray(doc['x-rate-limit-classes']) ? doc['x-rate-limit-classes'] : []).filter(isObj);
  for (const c of classes)
    if (typeof c.name === 'string' && typeof c.budget === 'string') classBudgets[c.name] = c.budget;
  const dflt = classes.find((c) => c.default === true && typeof c.name === 'string');
  return { limits, classBudgets, defaultClass: dflt ? String(dflt.name) : null };
}

/**
 * The method that subscribes (or unsubscribes): the spec's own, else the default JSON-RPC frames a spec
 * without x-role assumes (method `subscribe`/`unsubscribe` with params {channels}).
 */
export function frameMethod(spec: GenSpec, name: string): GenMethod {
  return (
    spec.methods.find((m) => m.name === name) ?? {
      id: name,
      name,
      transports: ['ws'],
      httpPath: null,
      auth: 'none',
      orderFlow: false,
      params: null,
      result: null,
      assumedParams: false,
      assumedResult: false,
      rateLimitClass: null,
    }
  );
}

/** Read a spec file into what the generator needs; throws an Error naming the file when it cannot. */
export function loadGenSpec(file: string): GenSpec {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'), { maxAliasCount: 1000 });
  } catch (err) {
    throw new Error(`cannot read the spec ${file}: ${(err as Error).message.split('\n')[0]}`, { cause: err });
  }
  if (!isObj(doc) || typeof doc.asyncapi !== 'string' || !doc.asyncapi.startsWith('3.'))
    throw new Error(`${file} is not an AsyncAPI 3.x document (no asyncapi: 3.x at its root)`);
  const ops = isObj(doc.operations) ? doc.operations : {};
  const methods = Object.entries(ops)
    .map(([id, op]) => (isObj(op) ? methodOf(doc as Record<string, unknown>, id, op) : null))
    .filter((m): m is GenMethod => m !== null);
  const role = (r: string) =>
    Object.values(ops).find((o) => isObj(o) && o['x-role'] === r && typeof o['x-method'] === 'string') as
      Record<string, string> | undefined;
  const { errors, own } = errorsOf(doc);
  const info = isObj(doc.info) ? doc.info : {};
  return {
    file,
    title: String(info.title ?? file),
    version: String(info.version ?? ''),
    doc,
    methods,
    channels: channelsOf(doc),
    errors,
    ownErrorTable: own,
    ...limitsOf(doc),
    subscribe: role('subscribe')?.['x-method'] ?? 'subscribe',
    unsubscribe: role('unsubscribe')?.['x-method'] ?? 'unsubscribe',
  };
}
