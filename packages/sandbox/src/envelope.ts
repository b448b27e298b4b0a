/**
 * The door: a request frame (WebSocket) or body (HTTP) becomes a JSON-RPC request, or the error that
 * answers it. Everything a handler may trust about shape is checked here, once for both transports:
 * JSON, one object, `id`, `jsonrpc`, `method`, `headers`, and how deep `params` nest. A request may
 * leave `jsonrpc` out, as ccxt and derive-ts do (the request-jsonrpc assumption); one that sends it
 * must send "2.0".
 */
import { isObject } from './options-fields';
import { NULL_ID, idTextOf, namedError, type IdText, type WireError } from './rpc';

/**
 * Params may nest this deep and no deeper. Every method's params are flat or nearly so; a bound at the
 * door keeps recursive work further in (validation, canonical JSON for the action signature) from
 * running out of stack on hostile input, which would surface as some other error.
 */
export const MAX_PARAMS_DEPTH = 32;

/** A request that passed the door. */
export interface Request {
  id: IdText;
  method: string;
  params: unknown;
  headers: unknown;
}

/** A request, or the error (with the id it can echo) that answers the frame. */
export type Admitted = { ok: true; request: Request } | { ok: false; id: IdText; error: WireError };

const refuse = (id: IdText, error: WireError): Admitted => ({ ok: false, id, error });

/** Parse JSON text; null when it is not JSON, with the parser's reason. */
function parseJson(text: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { problem: (err as Error).message.slice(0, 120) };
  }
}

/** Read one WebSocket text frame as a JSON-RPC request. */
export function admitFrame(text: string): Admitted {
  const parsed = parseJson(text);
  if ('problem' in parsed) return refuse(NULL_ID, namedError('RPC_PARSE_ERROR', `not JSON: ${parsed.problem}`));
  const msg = parsed.value;
  if (Array.isArray(msg))
    return refuse(
      NULL_ID,
      namedError('RPC_INVALID_REQUEST', 'batch requests are not supported: send one request object per frame'),
    );
  if (!isObject(msg))
    return refuse(
      NULL_ID,
      namedError('RPC_INVALID_REQUEST', `a request must be a JSON object (got ${msg === null ? 'null' : typeof msg})`),
    );
  if (!('id' in msg))
    return refuse(NULL_ID, namedError('RPC_INVALID_REQUEST', '/id: required (string, number or null)'));
  const id = idTextIn(msg.id, text);
  if (id === null) return refuse(NULL_ID, namedError('RPC_INVALID_REQUEST', '/id: must be a string, number or null'));
  if (msg.jsonrpc !== undefined && msg.jsonrpc !== '2.0')
    return refuse(
      id,
      namedError(
        'RPC_INVALID_REQUEST',
        `/jsonrpc: must be "2.0" when present (got ${JSON.stringify(msg.jsonrpc).slice(0, 40)})`,
      ),
    );
  if (typeof msg.method !== 'string')
    return refuse(id, namedError('RPC_INVALID_REQUEST', '/method: required, a string'));
  if (msg.headers !== undefined && msg.headers !== null && !isObject(msg.headers))
    return refuse(id, namedError('RPC_INVALID_REQUEST', '/headers: must be an object or null'));
  return withParams(id, msg.method, msg.params, msg.headers);
}

/**
 * Read an HTTP body for the method its path names. The body is the params; an empty body or the JSON
 * null is empty params (derive-ts posts null; a GET has none: the http-get assumption). A full
 * JSON-RPC request object (one with `jsonrpc`) is accepted too, and its id echoed, as long as it names
 * the same method.
 */
export function admitBody(text: string, pathMethod: string, headers: unknown): Admitted {
  let body: unknown = {};
  if (text.trim() !== '') {
    const parsed = parseJson(text);
    if ('problem' in parsed)
      return refuse(NULL_ID, namedError('RPC_PARSE_ERROR', `body is not JSON: ${parsed.problem}`));
    body = parsed.value ?? {};
  }
  if (!isObject(body) || !('jsonrpc' in body)) return withParams(NULL_ID, pathMethod, body, headers);
  const id = 'id' in body ? idTextIn(body.id, text) : NULL_ID;
  if (id === null) return refuse(NULL_ID, namedError('RPC_INVALID_REQUEST', '/id: must be a string, number or null'));
  if (body.jsonrpc !== '2.0')
    return refuse(
      id,
      namedError('RPC_INVALID_REQUEST', `/jsonrpc: must be "2.0" (got ${JSON.stringify(body.jsonrpc).slice(0, 40)})`),
    );
  if (body.method !== undefined && body.method !== pathMethod) {
    return refuse(
      id,
      namedError(
        'RPC_INVALID_REQUEST',
        `/method: ${JSON.stringify(body.method).slice(0, 80)} is not the method of this path (${pathMethod})`,
      ),
    );
  }
  return withParams(id, pathMethod, body.params, headers);
}

function withParams(id: IdText, method: string, params: unknown, headers: unknown): Admitted {
  const p = params === undefined ? {} : params;
  if (nestsDeeperThan(p, MAX_PARAMS_DEPTH))
    return refuse(id, namedError('RPC_INVALID_PARAMS', `/params: nested deeper than ${MAX_PARAMS_DEPTH} levels`));
  return { ok: true, request: { id, method, params: p, headers } };
}

/** The text to echo for a parsed id, or null when the value cannot be an id. */
function idTextIn(id: unknown, source: string): IdText | null {
  if (id === null || typeof id === 'string') return idTextOf(id);
  if (typeof id !== 'number') return null;
  // A number is echoed with the digits it was sent with: a double would round ids above 2^53.
  return (topLevelMember(source, 'id') ?? null) as IdText | null;
}

/** Whether a parsed JSON value nests objects or arrays deeper than `limit` (iterative: no recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  return i;
}

/** The index just past the string literal starting at `i`. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

/** The index just past the JSON value starting at `i` (strings, nested containers, scalars). */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < text.length && !WHITESPACE.has(text[j]!) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text[j];
    if (d === '"') j = stringEnd(text, j) - 1;
    else if (d === '{' || d === '[') depth++;
    else if ((d === '}' || d === ']') && --depth === 0) return j + 1;
  }
  return text.length;
}

/**
 * The source text of a member of the top-level object in valid JSON text (the last one when the name
 * repeats, as JSON.parse keeps), or null when there is none.
 */
export function topLevelMember(text: string, name: string): string | null {
  let i = skipWhitespace(text, 0);
  if (text[i] !== '{') return null;
  let found: string | null = null;
  i = skipWhitespace(text, i + 1);
  while (i < text.length && text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const start = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    if (key === name) found = text.slice(start, end);
    i = skipWhitespace(text, end);
    if (text[i] !== ',') break;
    i = skipWhitespace(text, i + 1);
  }
  return found;
}
