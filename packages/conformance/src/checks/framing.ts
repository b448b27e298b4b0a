/** Framing: id echo, result xor error, the error object, answers to malformed requests. */
import { errorByCode, errorByName, errorOfKind, errorTable, type ErrorName } from '@exchange-api/types';
import { validators, cut } from '@exchange-api/validators';
import { isResponse, silenceOf, type Frame, type RpcResponse, type WsConn } from '../connection';
import type { Check, Ctx } from '../context';
import { S, errorOf, method, FINDING_MAX, validateInto } from './util';

async function echo(ctx: Ctx, id: string | number | null): Promise<void> {
  const conn = await ctx.connect();
  const request = JSON.stringify({ jsonrpc: '2.0', id, method: method('publicGetRateLimits'), params: {} });
  const from = conn.frames.length;
  const frame = await sendRaw(ctx, conn, request, 5000);
  if (!frame)
    ctx.abort({
      rule: 'responses echo id',
      expected: `a response with id ${JSON.stringify(id)}`,
      got: silenceOf(conn, from, 5000, request),
      message: 'no response',
    });
  const r = frame.json as RpcResponse;
  if (!('id' in r))
    ctx.abort({
      pointer: '/id',
      rule: 'responses echo id',
      expected: JSON.stringify(id),
      got: '(missing)',
      message: 'the response has no id',
    });
  if (r.id !== id || typeof r.id !== typeof id) {
    ctx.fail({
      pointer: '/id',
      rule: 'responses echo id (same JSON type and value)',
      expected: `${JSON.stringify(id)} (${id === null ? 'null' : typeof id})`,
      got: `${JSON.stringify(r.id)} (${r.id === null ? 'null' : typeof r.id})`,
      message: `id ${JSON.stringify(id)} came back as ${JSON.stringify(r.id)}`,
    });
  }
}

/** The code of a documented (or assumed) error, by its stable name in the generated error table. */
const codeNamed = (name: ErrorName): number => errorByName(name).code;

/** The JSON-RPC 2.0 codes a malformed frame is answered with, by their names in the error table. */
const FRAMING_CODES = ['RPC_PARSE_ERROR', 'RPC_INVALID_REQUEST', 'RPC_METHOD_NOT_FOUND', 'RPC_INVALID_PARAMS'] as const;

/** Send one raw frame (paced) and wait for the first response after it (null when none comes). */
async function sendRaw(p: Ctx, conn: WsConn, frame: string | object, timeoutMs: number): Promise<Frame | null> {
  await p.run.pacer.take();
  p.throwIfStopped();
  const from = conn.frames.length;
  conn.send(frame);
  return conn.waitFor((f) => isResponse(f.json), timeoutMs, from);
}

/** One malformed or failing request and what came back. */
interface ErrorCase {
  name: 'parse' | 'not-an-object' | 'no-method' | 'unknown-method' | 'invalid-params';
  /** The JSON-RPC 2.0 code for this case (the spec adopts them as the error-codes assumption). */
  jsonRpcCode: number;
  sent: string;
  response: RpcResponse | null;
  frame: Frame | null;
}

/** Send the malformed and failing requests once per run; several checks read the answers. */
function errorCases(ctx: Ctx) {
  return ctx.shared('error-cases', async (p) => {
    const conn = await p.connect('errors');
    const cases: Omit<ErrorCase, 'response' | 'frame'>[] = [
      {
        name: 'parse',
        jsonRpcCode: codeNamed('RPC_PARSE_ERROR'),
        sent: '{"jsonrpc":"2.0","id":"conf-parse","method":',
      },
      { name: 'not-an-object', jsonRpcCode: codeNamed('RPC_INVALID_REQUEST'), sent: '"not a request"' },
      {
        name: 'no-method',
        jsonRpcCode: codeNamed('RPC_INVALID_REQUEST'),
        sent: JSON.stringify({ jsonrpc: '2.0', id: 'conf-no-method', params: {} }),
      },
      {
        name: 'unknown-method',
        jsonRpcCode: codeNamed('RPC_METHOD_NOT_FOUND'),
        sent: JSON.stringify({
          jsonrpc: '2.0',
          id: 'conf-unknown-method',
          method: 'conformance/no_such_method',
          params: {},
        }),
      },
      {
        name: 'invalid-params',
        jsonRpcCode: codeNamed('RPC_INVALID_PARAMS'),
        sent: JSON.stringify({
          jsonrpc: '2.0',
          id: 'conf-invalid-params',
          method: method('subscribe'),
          params: { channels: 42 },
        }),
      },
    ];
    const out: ErrorCase[] = [];
    for (const c of cases) {
      const frame = await sendRaw(p, conn, c.sent, 3000);
      out.push({ ...c, response: frame ? (frame.json as RpcResponse) : null, frame });
    }
    // Whether the connection still serves a valid request after the malformed ones.
    let stillServes = false;
    if (conn.isOpen) {
      await p.run.pacer.take();
      const r = await conn.request(method('publicGetRateLimits'), {}, { timeoutMs: 3000 });
      stillServes = !!r && 'result' in r.response;
    }
    return { cases: out, stillServes, closed: conn.closeInfo };
  });
}

/** The shared error cases with their transcript attached to the check, and those answered with an error object. */
async function answeredCases(ctx: Ctx) {
  const x = await errorCases(ctx);
  ctx.transcript.attach(x.transcript.entries);
  const errors = x.cases.flatMap((c) => {
    const e = c.response && errorOf(c.response);
    return e ? [{ c, e }] : [];
  });
  return { ...x, errors };
}

/**
 * End the check inconclusive unless every error case was answered with an error object: a case with no
 * error to look at is no evidence that the server uses the right codes there.
 */
function needEvery(ctx: Ctx, cases: readonly ErrorCase[], answered: number): void {
  if (answered === cases.length) return;
  const missing = cases.filter((c) => !c.response || !errorOf(c.response)).map((c) => c.name);
  ctx.inconclusive(
    (answered === 0
      ? 'no error object came back'
      : `only ${answered} of ${cases.length} requests were answered with an error object`) +
      ` (no error for ${missing.join(', ')}; see framing.malformed)`,
  );
}

/** The documented rate-limit error (the reserved range is for rate-limit errors: known by its message). */
const rateLimitEntry = errorOfKind('rate-limit');

const reserved = errorTable.reserved[0]!;

export const framingChecks: Check[] = [
  {
    id: 'framing.id-echo-string',
    title: 'A string request id is echoed as the same string',
    section: `${S.framing}; ${S.conventions} (JsonRpcId)`,
    level: 'MUST',
    needs: [],
    run: (ctx) => echo(ctx, 'conf-échø-1'),
  },
  {
    id: 'framing.id-echo-number',
    title: 'A number request id is echoed as the same number',
    section: `${S.framing}; ${S.conventions} (JsonRpcId)`,
    level: 'MUST',
    needs: [],
    run: (ctx) => echo(ctx, 4242),
  },
  {
    id: 'framing.id-echo-null',
    title: 'A null request id is echoed as null',
    section: `${S.framing}; ${S.conventions} (JsonRpcId)`,
    level: 'MUST',
    needs: [],
    run: (ctx) => echo(ctx, null),
  },
  {
    id: 'framing.result-xor-error',
    title: 'Every response carries either result or error, never both, never neither',
    section: S.framing,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const conn = await ctx.connect();
      const responses: [string, RpcResponse][] = [];
      responses.push(['public/getRateLimits', await ctx.call(conn, method('publicGetRateLimits'), {})]);
      responses.push(['unknown method', await ctx.call(conn, 'conformance/no_such_method', {})]);
      responses.push(['unsubscribe of everything', await ctx.call(conn, method('unsubscribe'), {})]);
      for (const [what, r] of responses) {
        const has = ['result', 'error'].filter((k) => k in r && (k === 'result' || r[k] !== undefined));
        if (has.length !== 1)
          ctx.fail({
            pointer: '/',
            rule: 'result xor error',
            expected: 'exactly one of result, error',
            got: has.length ? has.join(' and ') : 'neither',
            message: `the response to ${what} carries ${has.length ? has.join(' and ') : 'neither result nor error'}`,
          });
        validateInto(ctx, validators.schemas.JsonRpcResponse, r, `response to ${what}`, 'JsonRpcResponse');
      }
    },
  },
  {
    id: 'framing.error-shape',
    title: 'Error objects have an integer code, a string message and optional string data',
    section: `${S.rpcError}; ${S.errors}`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const { errors } = await answeredCases(ctx);
      for (const { c, e } of errors)
        validateInto(ctx, validators.schemas.RPCError, e, `error answering ${c.name}`, 'RPCError', '/error');
      if (errors.length === 0) ctx.inconclusive('no error object came back to compare (see framing.malformed)');
    },
  },
  {
    id: 'framing.malformed',
    title: 'Malformed and failing requests get an error response, not silence or a result',
    section: `${S.framing} (JSON-RPC 2.0); ${S.errors}`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const { cases, stillServes, closed } = await answeredCases(ctx);
      const late: string[] = [];
      for (const c of cases) {
        // Silence on an open connection may be a late answer; a close in its place is the server's answer.
        if (!c.response && !closed) late.push(c.name);
        else if (!c.response)
          ctx.fail({
            rule: 'JSON-RPC 2.0: a request that cannot be served gets an error response',
            expected: 'an error response',
            got: `no answer; the connection closed (code ${closed!.code})`,
            message: `no answer to the ${c.name} request ${cut(c.sent, 60)}`,
          });
        else if (!errorOf(c.response))
          ctx.fail({
            pointer: '/error',
            rule: 'JSON-RPC 2.0: a request that cannot be served gets an error response',
            expected: 'an error object',
            got: cut(c.response, FINDING_MAX),
            message: `the ${c.name} request was not answered with an error`,
          });
        else if (c.name === 'parse' && c.response.id !== null)
          ctx.fail({
            pointer: '/id',
            rule: 'JSON-RPC 2.0: the id of a parse error is null',
            expected: 'null',
            got: cut(c.response.id, FINDING_MAX),
            message: 'a parse error did not carry id null',
          });
      }
      ctx.observe({
        assumption: 'frame-size',
        text: stillServes
          ? 'after the malformed requests the connection still served a valid request'
          : 'after the malformed requests the connection ' +
            (closed ? `was closed (code ${closed.code})` : 'did not serve a valid request'),
        conforms: stillServes,
      });
      if (late.length > 0 && ctx.findings.length === 0)
        ctx.inconclusive(`no answer within 3000 ms to the ${late.join(', ')} request(s): a late answer is no evidence`);
    },
  },
  {
    id: 'framing.error-codes',
    title: `Framing errors use the JSON-RPC 2.0 codes (${FRAMING_CODES.map(codeNamed).join(', ')})`,
    section: `${S.errors} (catalogue not shown; JSON-RPC 2.0 codes are the error-codes assumption)`,
    level: 'SHOULD',
    needs: [],
    async run(ctx) {
      const { cases, errors } = await answeredCases(ctx);
      for (const { c, e } of errors) {
        const entry = errorByCode(c.jsonRpcCode);
        const conforms = e.code === c.jsonRpcCode;
        ctx.observe({
          assumption: 'error-codes',
          text: `${c.name}: code ${cut(e.code, FINDING_MAX)} (assumed ${c.jsonRpcCode} ${entry?.message ?? ''})`,
          conforms,
        });
        if (!conforms)
          ctx.fail({
            pointer: '/error/code',
            rule: `error-codes assumption: ${entry?.condition ?? c.name}`,
            expected: String(c.jsonRpcCode),
            got: cut(e.code, FINDING_MAX),
            message: `${c.name} answered with code ${cut(e.code, FINDING_MAX)}, not ${c.jsonRpcCode}`,
          });
      }
      // A pass says every case used its code: each case needs an error object to compare.
      if (ctx.findings.length === 0) needEvery(ctx, cases, errors.length);
    },
  },
  {
    id: 'framing.reserved-codes',
    title: `Errors other than rate limits stay out of the reserved range ${reserved.from}…${reserved.to}`,
    section: `${S.errors} (rule 1)`,
    level: 'MUST',
    needs: [],
    async run(ctx) {
      const { cases, errors } = await answeredCases(ctx);
      for (const { c, e } of errors) {
        if (typeof e.code !== 'number') continue;
        if (e.code >= reserved.from && e.code <= reserved.to && e.message !== rateLimitEntry.message) {
          ctx.fail({
            pointer: '/error/code',
            rule: `codes ${reserved.from} through ${reserved.to} are reserved for rate-limit errors`,
            expected: 'a code outside the reserved range',
            got: String(e.code),
            message: `the ${c.name} error used reserved code ${e.code}`,
          });
        }
      }
      if (ctx.findings.length === 0) needEvery(ctx, cases, errors.length);
    },
  },
];
