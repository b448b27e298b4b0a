/**
 * The verdict on one generated call, from what came back. A valid input is accepted with a result that
 * conforms to the result schema, or refused with a code the error table documents (but not "invalid
 * params" or "method not found": the spec serves the method and the input fits its schema); an invalid
 * input is refused with a documented code, never served. Never a closed connection, a code outside the
 * table or a frame outside the envelope. No answer within the bound is inconclusive. Where the spec only
 * assumes the params or the result (x-assumed-params / x-assumed-result), a departure is a note.
 */
import type { SchemaSet } from './schema-set';
import type { InputCase } from './cases';
import type { GenMethod, GenSpec } from './spec';
import { judged as v, rule } from './rules';
import type { Judgement } from '../model';

/** What came back for one call. */
export type Outcome =
  | { kind: 'response'; json: unknown; text: string }
  | { kind: 'silence'; what: string }
  | { kind: 'closed'; code: number; what: string }
  | { kind: 'http'; status: number; json: unknown; text: string }
  | { kind: 'http-error'; what: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a response is outside the JSON-RPC envelope ('' when it is inside). */
export function envelopeProblem(json: unknown, id: unknown): string {
  if (!isObj(json)) return 'not a JSON object';
  if ('jsonrpc' in json && json.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(json.jsonrpc)}, not "2.0"`;
  if (id !== undefined && json.id !== id) return `id ${JSON.stringify(json.id)} does not echo ${JSON.stringify(id)}`;
  if ('result' in json === 'error' in json) return 'carries both result and error, or neither';
  if ('error' in json) {
    const e = json.error;
    if (!isObj(e)) return 'error is not an object';
    if (!Number.isInteger(e.code)) return 'error.code is not an integer';
    if (typeof e.message !== 'string') return 'error.message is not a string';
    if (e.data !== undefined && e.data !== null && typeof e.data !== 'string')
      return 'error.data is not a string or null';
  }
  return '';
}

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

/** Codes a valid input must not be refused with: the method is served and the input fits its schema. */
const NOT_FOR_VALID = new Set([-32600, -32601, -32602]);

/** Judge the answer to a valid input. */
function judgeValid(
  m: GenMethod,
  schemas: SchemaSet,
  c: InputCase,
  body: Record<string, unknown>,
  text: string,
): Judgement {
  const soft = m.assumedParams ? 'note' : 'fail';
  if ('error' in body) {
    const code = (body.error as { code: number }).code;
    if (NOT_FOR_VALID.has(code) && c.offHint)
      return v(
        'note',
        rule(
          'unlisted-name-refused',
          `a value of /${c.offHint} the server does not list is refused as ${code}; ` +
            `the table gives ${code} to params that fail the schema`,
        ),
        'a documented code for an unknown name',
        short(text),
      );
    // What a server does not model it refuses by name: an unnamed member the schema allows may be refused.
    if (NOT_FOR_VALID.has(code) && c.extra)
      return v(
        'pass',
        rule('unnamed-member-refused-by-name', `/${c.extra}, allowed but not named, refused with a documented code`),
        'a documented code',
        `code ${code}`,
      );
    if (NOT_FOR_VALID.has(code))
      return v(soft, 'valid-not-refused-as-invalid', `a result, or a documented code other than ${code}`, short(text));
    return v(
      'pass',
      rule('valid-not-refused-as-invalid', 'a valid input refused with a documented code'),
      'a result or a documented code',
      `code ${code}`,
    );
  }
  const why = schemas.why(m.result, body.result);
  if (why === '')
    return v(
      'pass',
      rule('result-conforms', 'a valid input accepted with a conforming result'),
      'a conforming result',
      'conforming result',
    );
  return v(m.assumedResult ? 'note' : 'fail', 'result-conforms', 'a result that conforms', `${why}: ${short(text)}`);
}

/** Judge the body of a JSON-RPC answer (over WebSocket, or an HTTP body in the envelope). */
function judgeBody(
  spec: GenSpec,
  m: GenMethod,
  schemas: SchemaSet,
  c: InputCase,
  body: Record<string, unknown>,
  text: string,
): Judgement {
  if ('error' in body) {
    const code = (body.error as { code: number }).code;
    if (!spec.errors.some((e) => e.code === code))
      return v(
        'fail',
        'error-code-documented',
        `one of ${spec.errors.map((e) => e.code).join(', ')}`,
        `code ${code}: ${short(text)}`,
      );
  }
  if (c.expect === 'valid') return judgeValid(m, schemas, c, body, text);
  if ('result' in body)
    return v(
      m.assumedParams ? 'note' : 'fail',
      'invalid-refused',
      '-32602 or another documented code',
      `a result: ${short(text)}`,
    );
  return v(
    'pass',
    rule('invalid-refused', 'an invalid input refused with a documented code'),
    'a documented code',
    `code ${(body.error as { code: number }).code}`,
  );
}

/** The verdict on one call. `id` is the request id sent (undefined over HTTP, where the body has no envelope). */
export function judge(
  spec: GenSpec,
  m: GenMethod,
  schemas: SchemaSet,
  c: InputCase,
  o: Outcome,
  id?: unknown,
): Judgement {
  switch (o.kind) {
    case 'closed':
      return v('fail', 'connection-kept', 'an answer on an open connection', o.what);
    case 'silence':
      return v(
        'inconclusive',
        'answer-within-bound',
        'an answer',
        `${o.what}: a late answer is no evidence either way`,
      );
    case 'http-error':
      return v('fail', 'http-answered', 'an HTTP response', o.what);
    case 'http': {
      const problem = envelopeProblem(o.json, undefined);
      if (problem)
        return v(
          'note',
          'http-body-envelope',
          'a JSON-RPC response body',
          `HTTP ${o.status}: ${problem}: ${short(o.text)}`,
        );
      return judgeBody(spec, m, schemas, c, o.json as Record<string, unknown>, o.text);
    }
    case 'response': {
      const problem = envelopeProblem(o.json, id);
      if (problem)
        return v('fail', 'envelope', 'a JSON-RPC 2.0 response echoing the id', `${problem}: ${short(o.text)}`);
      return judgeBody(spec, m, schemas, c, o.json as Record<string, unknown>, o.text);
    }
  }
}
