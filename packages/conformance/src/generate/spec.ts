/**
 * The spec as a generated run sees it: its methods, subscription channels, error codes and budgets, with
 * the schemas they refer to. Read through the code generator's loader and model (spec-model.ts), never
 * parsed here. Without --spec it is the spec this package's tables were generated from (a clone's
 * spec/asyncapi.yaml, else the copy @exchange-api/types ships).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

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

/**
 * The method that subscribes (or unsubscribes): the spec's own, else the default JSON-RPC frames a spec
 * without x-role assumes (method `subscribe`/`unsubscribe` with params {channels}), as the generator does.
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
