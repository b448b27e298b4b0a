/**
 * The runner reads a spec through the code generator's loader and model, never through a reader of its
 * own: a spec the generator reads, the runner reads the same way (which channels are subscription
 * channels, which operations are methods, x-view, x-role, the defaults of a spec without our
 * extensions). The runner may not import the generator (docs/architecture.md, "Layers"), so the command
 * (`@exchange-api/cli`) loads the model and hands it over through a SpecLoader; SpecModel is the part of
 * the generator's ApiModel the runner reads, declared here by its shape.
 */
import type { GenChannel, GenError, GenLimit, GenMethod, GenSpec, Schema } from './spec';
import { JSONRPC_CODES } from './spec';
import type { WireShape } from '../messages/wire-shape';

/** A payload as the model gives it: its schema (named schemas referred to as `#/definitions/<Name>`). */
interface PayloadShape {
  schema: Record<string, unknown>;
  record: string | null;
}

/** The part of the generator's ApiModel (tools/codegen/src/model/types.ts) the runner reads. */
export interface SpecModel {
  title: string;
  version: string;
  schemas: Record<string, Record<string, unknown>>;
  channels: {
    id: string;
    address: string;
    access: 'public' | 'private';
    parameters: { name: string; enum: string[] | null }[];
    payload: PayloadShape;
  }[];
  methods: {
    id: string;
    name: string;
    params: PayloadShape;
    result: PayloadShape;
    assumedParams: string | null;
    assumedResult: string | null;
    rateLimitClass: string | null;
    transports: ('ws' | 'http')[];
    httpPath: string | null;
    auth: 'none' | 'login';
    orderFlow: boolean;
  }[];
  errors: { codes: { code: number; name?: string; kind?: string }[] };
  limits: { id: string; kind: string; scope: string; points?: number; windowMs?: number }[];
  rateLimitClasses: { name: string; default: boolean; budget: string }[];
  roles: { subscribe: string | null };
  /** How a spec that speaks its own messages meets the wire (absent for JSON-RPC framing): messages/ runs it. */
  wire?: WireShape;
  /** What the loader let pass and says (a message example its schema refuses: it is not sent). */
  warnings?: string[];
}

/** Read a spec file into its model (the command passes the generator's loader); rejects naming the file. */
export type SpecLoader = (file: string) => Promise<SpecModel>;

/** The method that unsubscribes: the model names only the subscribing one (its x-role). */
const UNSUBSCRIBE = 'unsubscribe';

const named = (name: string | null): Schema | null => (name ? { $ref: `#/definitions/${name}` } : null);

/** A payload's schema; a payload with no schema (no message) is null: anything goes. */
function payload(p: PayloadShape): Schema | null {
  return Object.keys(p.schema).length === 0 && p.record === null ? null : p.schema;
}

function methodOf(m: SpecModel['methods'][number]): GenMethod {
  return {
    id: m.id,
    name: m.name,
    transports: [...m.transports],
    httpPath: m.httpPath,
    auth: m.auth,
    orderFlow: m.orderFlow,
    params: named(m.assumedParams) ?? payload(m.params),
    result: named(m.assumedResult) ?? payload(m.result),
    assumedParams: m.assumedParams !== null,
    assumedResult: m.assumedResult !== null,
    rateLimitClass: m.rateLimitClass,
  };
}

function channelOf(c: SpecModel['channels'][number]): GenChannel {
  return {
    id: c.id,
    address: c.address,
    access: c.access,
    parameters: c.parameters.map((p) => ({ name: p.name, enum: p.enum ? p.enum.map(String) : null })),
    payload: payload(c.payload),
  };
}

function errorsOf(model: SpecModel): { errors: GenError[]; own: boolean } {
  const own = model.errors.codes.map((c) => ({ code: c.code, name: c.name ?? String(c.code), kind: c.kind ?? '' }));
  const merged = [...own, ...JSONRPC_CODES.filter((j) => !own.some((o) => o.code === j.code))];
  return { errors: merged, own: own.length > 0 };
}

function limitsOf(model: SpecModel): GenLimit[] {
  return model.limits
    .filter((l) => l.kind === 'window' && typeof l.points === 'number' && typeof l.windowMs === 'number')
    .map((l) => ({ id: l.id, scope: l.scope, points: l.points!, windowMs: l.windowMs! }));
}

/** What the generated run needs of a spec, from the generator's model of `file`. */
export function genSpecOf(model: SpecModel, file: string): GenSpec {
  const { errors, own } = errorsOf(model);
  const methods = model.methods.map(methodOf);
  const subscribe = methods.find((m) => m.id === model.roles.subscribe)?.name ?? 'subscribe';
  const dflt = model.rateLimitClasses.find((c) => c.default);
  return {
    file,
    title: model.title,
    version: model.version,
    // The model's schemas, where its references point (`#/definitions/<Name>`).
    doc: { definitions: model.schemas },
    methods,
    channels: model.channels.map(channelOf),
    errors,
    ownErrorTable: own,
    limits: limitsOf(model),
    classBudgets: Object.fromEntries(model.rateLimitClasses.map((c) => [c.name, c.budget])),
    defaultClass: dflt ? dflt.name : null,
    subscribe,
    unsubscribe: UNSUBSCRIBE,
  };
}
