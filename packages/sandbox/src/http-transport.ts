/**
 * The HTTP transport: `POST /v3/<public|private>/<method>` through the pipeline, CORS preflights, and
 * the control plane's paths when it is on (behind control-guard.ts). The document's rules are enforced
 * at the door: POST with Content-Type application/json, a body no larger than `max_frame_bytes`
 * (refused without reading the rest, and the connection closed), and a JSON-RPC envelope, when sent,
 * naming the path's method. A GET of a method's path is the method with empty params (ccxt GETs
 * public/get_all_currencies; the http-get assumption).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loginTable, methodTable } from '@exchange-api/types';
import { stripV6 } from './accounts';
import { admitBody } from './envelope';
import type { CallContext, Pipeline } from './pipeline';
import {
  RpcFailure,
  errorFrame,
  httpStatusOf,
  namedError,
  NULL_ID,
  replyFrame,
  wireErrorOf,
  type IdText,
  type WireError,
} from './rpc';
import type { ControlReply } from './control';
import { refuseControl } from './control-guard';
import type { Faults } from './faults';

const CORS = { 'access-control-allow-origin': '*' };
const byPath = new Map(methodTable.filter((m) => m.httpPath).map((m) => [m.httpPath as string, m]));
const PATHS = [...byPath.keys()].join(', ');
/** Every name a login header may come under: the document's and the clients' (the login-header-names assumption). */
const LOGIN_HEADERS = [loginTable.headers, ...(loginTable.alternateHeaders ?? [])].flatMap((h) => [
  h.wallet,
  h.timestamp,
  h.signature,
]);

/** Serves the control plane: method, path and body text in, status and JSON body out. */
export type ControlHandler = (method: string, path: string, text: string) => Promise<ControlReply>;

/** The parts the HTTP transport drives. */
export interface HttpParts {
  maxFrameBytes: number;
  /** The control plane's body limit (its pushes may carry large payloads). */
  maxControlBytes: number;
  pipeline: Pipeline;
  /** The control plane, or null when it is off (its paths are then 404). */
  control: ControlHandler | null;
  /** The host the server listens on, which the control plane's Host check accepts besides loopback. */
  listenHost: string;
  faults: Faults;
  /** Answer `/public/<name>` and `/private/<name>` as under /v3 (the derive-local preset). */
  rootPaths?: boolean;
}

/** A body read up to a limit: its text, its size when it went over (the rest left unread), or the peer gone. */
type Body = { text: string } | { over: string } | { aborted: true };

/** Read a request body, stopping as soon as it passes `limit` bytes (or its Content-Length says it will). */
function readBody(req: IncomingMessage, limit: number): Promise<Body> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    return Promise.resolve({ over: `of ${declared} bytes (Content-Length)` });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (body: Body) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(body);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= limit) return void chunks.push(c);
      req.pause();
      finish({ over: `of more than ${limit} bytes` });
    };
    const onEnd = () => finish({ text: Buffer.concat(chunks).toString('utf8') });
    const onClose = () => finish({ aborted: true });
    req.on('data', onData).on('end', onEnd).on('close', onClose).on('error', onClose);
  });
}

/**
 * How an answer ends: `close` ends the connection (for a request whose body was not read); `cors`
 * lets any origin read it.
 */
type Answer = { close?: boolean; cors?: boolean };

/** A JSON answer. The API's answers allow any origin (the docs' live examples call it from a browser). */
function sendJson(
  res: ServerResponse,
  status: number,
  text: string,
  { close = false, cors = true }: Answer = {},
): void {
  if (res.headersSent) return;
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(cors ? CORS : {}),
  };
  if (close) headers.connection = 'close';
  res.writeHead(status, headers);
  res.end(text);
}

const fail = (res: ServerResponse, id: IdText, error: WireError, close = false) =>
  sendJson(res, httpStatusOf(error.code), errorFrame(id, error), { close });

/** Whether a Content-Type header names application/json (parameters such as charset allowed). */
const isJson = (type: string | undefined) => (type ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';

/** The HTTP request listener of the sandbox. */
export function createHttpListener(parts: HttpParts): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(parts, req, res).catch((err) => {
      parts.faults.report('server', `HTTP ${req.method} ${(req.url ?? '').slice(0, 80)}`, err);
      fail(res, NULL_ID, wireErrorOf(err));
    });
  };
}

/** Send a request where its path says: the control plane, a CORS preflight, or a method. */
async function route(parts: HttpParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The raw path: a URL parser would read `//v3/...` as a host and answer about some other path.
  const raw = (req.url ?? '/').split('?')[0]!;
  const path = parts.rootPaths && /^\/(public|private)\//.test(raw) ? `/v3${raw}` : raw;
  if (path.includes('//'))
    return fail(
      res,
      NULL_ID,
      namedError(
        'RPC_METHOD_NOT_FOUND',
        `path ${JSON.stringify(path.slice(0, 120))} has an empty segment (//); methods ` +
          `are at /v3/public/<method> and /v3/private/<method>`,
      ),
      true,
    );
  if (path === '/control' || path.startsWith('/control/')) return serveControl(parts, req, res, path);
  // Browsers (the docs' live examples) preflight POSTs carrying JSON and the login headers.
  if (req.method === 'OPTIONS' && path.startsWith('/v3/')) {
    res.writeHead(204, {
      ...CORS,
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': ['content-type', ...LOGIN_HEADERS].join(', '),
      'access-control-max-age': '600',
    });
    return void res.end();
  }
  return serveMethod(parts, req, res, path);
}

/**
 * The door of a method's path: it exists, takes POST (or GET, without a body), says JSON, and its body fits; then the
 * call.
 */
async function serveMethod(parts: HttpParts, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const m = byPath.get(path);
  if (!m)
    return fail(
      res,
      NULL_ID,
      namedError('RPC_METHOD_NOT_FOUND', `no method at ${path.slice(0, 120)} (HTTP methods: ${PATHS})`),
      true,
    );
  if (req.method === 'GET') return call(parts, req, res, m.name, '');
  if (req.method !== 'POST')
    return fail(
      res,
      NULL_ID,
      namedError('RPC_METHOD_NOT_FOUND', `${path} takes POST or GET (got ${req.method})`),
      true,
    );
  if (!isJson(req.headers['content-type']))
    return fail(
      res,
      NULL_ID,
      namedError(
        'RPC_INVALID_REQUEST',
        `Content-Type must be application/json (got ${JSON.stringify(req.headers['content-type'] ?? null).slice(0, 80)})`,
      ),
      true,
    );
  const body = await readBody(req, parts.maxFrameBytes);
  if ('aborted' in body) return;
  if ('over' in body)
    return fail(
      res,
      NULL_ID,
      namedError(
        'RPC_INVALID_REQUEST',
        `body ${body.over} is over the ${parts.maxFrameBytes}-byte limit; the rest was not read`,
      ),
      true,
    );
  return call(parts, req, res, m.name, body.text);
}

/** One admitted body through the pipeline, answered with its result or its error. */
async function call(
  parts: HttpParts,
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
  text: string,
): Promise<void> {
  const admitted = admitBody(text, name, req.headers);
  if (!admitted.ok) return fail(res, admitted.id, admitted.error);
  const { id, method, params, headers } = admitted.request;
  const ip = stripV6(req.socket.remoteAddress ?? 'unknown');
  try {
    const ctx: CallContext = { transport: 'http', ip, conn: null, session: null, headers, spent: null };
    sendJson(res, 200, replyFrame(id, await parts.pipeline(ctx, method, params)));
  } catch (err) {
    // -32603 is a failure of ours, not of the request: counted and reported, as well as answered.
    if (!(err instanceof RpcFailure)) parts.faults.report('server', `HTTP ${method}`, err);
    fail(res, id, wireErrorOf(err));
  }
}

/** The control plane's paths: 404 when it is off; the guard (control-guard.ts); then the action. No CORS. */
async function serveControl(parts: HttpParts, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const noCors = { cors: false };
  if (!parts.control)
    return sendJson(res, 404, JSON.stringify({ error: `no such path ${path}` }), { ...noCors, close: true });
  const refused = refuseControl(req, parts.listenHost);
  if (refused) return sendJson(res, refused.status, JSON.stringify(refused.body), { ...noCors, close: true });
  const body = await readBody(req, parts.maxControlBytes);
  if ('aborted' in body) return;
  if ('over' in body)
    return sendJson(
      res,
      413,
      JSON.stringify({ error: `control body ${body.over} is over the ${parts.maxControlBytes}-byte limit` }),
      { ...noCors, close: true },
    );
  const reply = await parts.control(req.method ?? 'GET', path, body.text);
  sendJson(res, reply.status, JSON.stringify(reply.body), noCors);
}
