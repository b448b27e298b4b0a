/**
 * The sandbox server: one Node `http` server carrying the WebSocket (JSON-RPC 2.0 at /v3/ws), the
 * HTTP POST methods (/v3/public/*, /v3/private/*) and, only when asked for, the control plane
 * (/control/*). Methods, transports, auth and rate-limit classes come from methodTable; channels
 * from channelTable; errors from errorTable.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { channelTable, loginTable, matchChannel, methodTable, type MethodEntry } from '@exchange-api/types';
import { validators, failuresOf, type ValidateFunction } from '@exchange-api/validators';
import { proofFromSources, recoverActionSigner, normalizeAddress, LoginProofError } from '@exchange-api/auth';
import { isObject, resolveOptions, type ResolvedOptions, type SandboxOptions } from './options';
import { Clock } from './clock';
import { Limits, type Spent } from './limits';
import { Accounts, stripV6, type Session } from './accounts';
import { Market, type Publisher, type OrderFields, type ActionFieldsLike } from './market';
import { RpcFailure, errorObject, errorFrame, replyFrame, notificationFrame, connectionLimitCode, connectionLimitPrefix, httpStatusOf, type WireError } from './rpc';
import { handleControl } from './control';


/** The login proof from params and headers; a value of the wrong type is invalid params, named. */
function readProof(params: unknown, headers: unknown) {
  try {
    return proofFromSources(params, headers);
  } catch (err) {
    if (err instanceof LoginProofError) throw new RpcFailure(-32602, err.message);
    throw err;
  }
}

/** A running sandbox. */
export interface Sandbox {
  /** `ws://HOST:PORT/v3/ws` */
  wsUrl: string;
  /** `http://HOST:PORT` */
  httpUrl: string;
  /** `http://HOST:PORT/control` when the control plane is on, else null. */
  controlUrl: string | null;
  /**
   * Push a notification with this data (not validated) to every connection subscribed to the exact
   * address, in process, through the same fan-out path as the market; returns how many got it.
   */
  publish(address: string, data: unknown): number;
  /** Terminate every connection and timer and stop listening. */
  close(): Promise<void>;
}

/** Subscriptions a single connection may hold; beyond it, subscribe reports the channel as refused. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;
/** A subscriber this far behind (bytes queued) is cut off rather than buffering without bound. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/**
 * Frames (and HTTP bodies) beyond this are not read at all: the WebSocket layer closes the connection
 * with 1009, so a peer cannot make the server buffer without bound (the frame-size assumption). Frames
 * between `max_frame_bytes` and this are read and answered -32600, and the connection stays open.
 */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

/** One WebSocket connection. */
export class Connection {
  session: Session | null = null;
  readonly subscriptions = new Set<string>();
  delayMs = 0;
  readonly timers = new Set<NodeJS.Timeout>();
  queue: Promise<void> = Promise.resolve();

  constructor(
    readonly id: number,
    readonly ws: WebSocket,
    readonly ip: string,
  ) {}

  /** Send a frame now, or after the injected delay. Buffers go out as text frames. */
  send(frame: string | Buffer): void {
    if (this.delayMs > 0) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.sendNow(frame);
      }, this.delayMs);
      this.timers.add(t);
      return;
    }
    this.sendNow(frame);
  }

  private sendNow(frame: string | Buffer): void {
    const ws = this.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(frame, { binary: false });
  }

  clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** What a method handler sees. */
interface CallContext {
  transport: 'ws' | 'http';
  ip: string;
  conn: Connection | null;
  session: Session | null;
  headers: unknown;
  spent: Spent | null;
}

type Handler = (ctx: CallContext, params: any) => unknown | Promise<unknown>;

const CORS = { 'access-control-allow-origin': '*' };
const methodsByName = new Map<string, MethodEntry>(methodTable.map((m) => [m.name, m]));
const isId = (v: unknown) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function describeFailures(validate: ValidateFunction, data: unknown): string | null {
  const failures = failuresOf(validate, data);
  if (failures.length === 0) return null;
  return failures
    .slice(0, 5)
    .map((f) => `${f.pointer}: ${f.rule} (got ${f.value})`)
    .join('; ');
}

/** The internals the control plane drives. */
export interface SandboxInternals {
  options: ResolvedOptions;
  clock: Clock;
  limits: Limits;
  market: Market;
  connections: Map<number, Connection>;
  subscribers: Map<string, Set<Connection>>;
  /** Send a pushed frame to every subscriber of the exact address; returns how many got it. */
  push(address: string, data: unknown): number;
  /** A schema-valid payload for any filled-in address, or null when it matches no channel. */
  generate(address: string): unknown;
}

/** Start a sandbox. Options are checked first (SandboxOptionsError names a bad key). */
export async function startSandbox(input: SandboxOptions = {}): Promise<Sandbox> {
  const options = resolveOptions(input);
  const clock = new Clock();
  const limits = new Limits(options, clock);
  const accounts = new Accounts(options, clock);
  const connections = new Map<number, Connection>();
  /**
   * Open connections per IP. `first` is the connection that opened the IP's current run (the span
   * during which it holds at least one connection): the connection budget has no time window, so
   * that run is its "duration", and isFirstInDuration of remaining_connections is true on exactly
   * that connection, as rate-limiter-flexible reports it for the request that opened a window.
   */
  const perIp = new Map<string, { count: number; first: number }>();
  const subscribers = new Map<string, Set<Connection>>();
  const byChannel = new Map<string, Map<string, Record<string, string>>>(channelTable.map((c) => [c.id, new Map()]));
  const channelOf = new Map<string, { id: string; params: Record<string, string> }>();
  const usedNonces = new Map<string, number>();
  const stray = new Set<WebSocket>();
  let nextId = 1;
  let closed = false;

  /** Serialize once per push, not once per subscriber: the fan-out stays one buffer. */
  const push = (address: string, data: unknown): number => {
    const set = subscribers.get(address);
    if (!set || set.size === 0) return 0;
    const frame = Buffer.from(notificationFrame(address, data));
    for (const c of set) c.send(frame);
    return set.size;
  };
  const publisher: Publisher = {
    addresses: (id) => byChannel.get(id) ?? new Map(),
    publish: (address, data) => void push(address, data),
  };
  const market = new Market(options, clock, accounts, publisher);

  const addSub = (conn: Connection, address: string, id: string, params: Record<string, string>) => {
    conn.subscriptions.add(address);
    let set = subscribers.get(address);
    if (!set) {
      set = new Set();
      subscribers.set(address, set);
      byChannel.get(id)?.set(address, params);
      channelOf.set(address, { id, params });
    }
    set.add(conn);
  };
  const dropSub = (conn: Connection, address: string) => {
    conn.subscriptions.delete(address);
    const set = subscribers.get(address);
    if (!set) return;
    set.delete(conn);
    if (set.size === 0) {
      subscribers.delete(address);
      const ch = channelOf.get(address);
      if (ch) byChannel.get(ch.id)?.delete(address);
      channelOf.delete(address);
    }
  };

  /** Why a channel would be refused for this connection, or null when it may be subscribed. */
  const refusal = (conn: Connection, address: string): { reason: string } | { id: string; params: Record<string, string> } => {
    const m = matchChannel(address);
    if (!m) return { reason: 'Invalid channel' };
    const p = m.params;
    if (p.instrument_name !== undefined && !market.instruments.has(p.instrument_name)) return { reason: 'Unknown instrument' };
    if (p.currency !== undefined && !market.currencies.has(p.currency)) return { reason: 'Unknown currency' };
    if (p.subaccount_id !== undefined && !/^[0-9]{1,18}$/.test(p.subaccount_id)) return { reason: 'Invalid channel' };
    if (p.wallet !== undefined && !normalizeAddress(p.wallet)) return { reason: 'Invalid channel' };
    if (m.channel.access === 'private') {
      const s = conn.session;
      if (!s) return { reason: errorObject(14000).message };
      if (!accounts.allows(s, 'read')) return { reason: errorObject(14003).message };
      if (p.subaccount_id !== undefined && !s.subaccounts.includes(Number(p.subaccount_id))) return { reason: errorObject(14003).message };
      if (p.wallet !== undefined && normalizeAddress(p.wallet) !== s.wallet) return { reason: errorObject(14003).message };
    }
    return { id: m.channel.id, params: p };
  };

  /** Check an order-flow request's own EIP-712 signature (the action-signature assumption). */
  const verifyAction = (session: Session, method: string, p: ActionFieldsLike & Record<string, unknown>) => {
    if (!session.subaccounts.includes(p.subaccount_id)) throw new RpcFailure(14003, `subaccount ${p.subaccount_id} is not one of the caller's (${session.subaccounts.join(', ')})`);
    const now = clock.now();
    if (p.signature_expiry_sec * 1000 <= now) throw new RpcFailure(14004, `signature_expiry_sec ${p.signature_expiry_sec} has passed (server time ${Math.floor(now / 1000)} s)`);
    let recovered: string;
    try {
      recovered = recoverActionSigner(method, p);
    } catch (err) {
      throw new RpcFailure(14004, `signature does not recover: ${(err as Error).message.slice(0, 120)}`);
    }
    const signer = normalizeAddress(p.signer);
    if (recovered !== signer) throw new RpcFailure(14004, `signature recovers to ${recovered}, not the signer ${p.signer}`);
    if (!accounts.signerAllowed(session.wallet, recovered)) throw new RpcFailure(14004, `signer ${recovered} is neither the wallet ${session.wallet} nor one of its unexpired session keys`);
    const key = `${recovered}:${p.nonce}`;
    if (usedNonces.has(key)) throw new RpcFailure(14004, `nonce ${p.nonce} was already used by ${recovered}`);
    usedNonces.set(key, p.signature_expiry_sec * 1000);
  };

  const subscriptionResult = (conn: Connection, status: Record<string, string>) => ({ status, current_subscriptions: [...conn.subscriptions] });

  const handlers: Record<string, Handler> = {
    subscribe: (ctx, p: { channels: string[] }) => {
      const conn = ctx.conn!;
      const status: Record<string, string> = {};
      for (const address of p.channels) {
        if (conn.subscriptions.has(address)) {
          status[address] = 'ok';
          continue;
        }
        if (conn.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
          status[address] = `Too many subscriptions (at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} per connection)`;
          continue;
        }
        const r = refusal(conn, address);
        if ('reason' in r) status[address] = r.reason;
        else {
          addSub(conn, address, r.id, r.params);
          status[address] = 'ok';
        }
      }
      return subscriptionResult(conn, status);
    },
    unsubscribe: (ctx, p: { channels?: string[] } | null) => {
      const conn = ctx.conn!;
      const status: Record<string, string> = {};
      const list = p?.channels ?? [...conn.subscriptions];
      for (const address of list) {
        status[address] = conn.subscriptions.has(address) ? 'ok' : 'Not subscribed';
        dropSub(conn, address);
      }
      return subscriptionResult(conn, status);
    },
    'public/login': (ctx, p) => {
      const conn = ctx.conn!;
      const session = accounts.verify(readProof(p, ctx.headers), ctx.ip, true);
      conn.session = session;
      // A new login may narrow what the connection can see.
      for (const address of [...conn.subscriptions]) if ('reason' in refusal(conn, address)) dropSub(conn, address);
      return session.subaccounts;
    },
    'public/getRateLimits': async (ctx) => {
      const wallet = ctx.session?.wallet ?? null;
      const result: Record<string, unknown> = await limits.report({ wallet, ip: ctx.ip }, ctx.spent);
      if (ctx.transport === 'ws') {
        const run = perIp.get(ctx.ip) ?? { count: 0, first: -1 };
        result.remaining_connections = {
          remainingPoints: Math.max(0, options.maxConnections - run.count),
          msBeforeNext: 0,
          consumedPoints: run.count,
          isFirstInDuration: run.first === ctx.conn?.id,
        };
      }
      return result;
    },
    'private/get_subaccounts': (ctx, p: { wallet: string }) => {
      const s = ctx.session!;
      if (normalizeAddress(p.wallet) !== s.wallet) throw new RpcFailure(14003, `wallet ${p.wallet} is not the logged-in wallet ${s.wallet}`);
      return { subaccount_ids: s.subaccounts };
    },
    'public/get_all_live_instruments': () => market.liveInstruments(),
    order: (ctx, p: OrderFields & ActionFieldsLike) => market.place(ctx.session!, p),
    replace: (ctx, p: OrderFields & ActionFieldsLike & { order_id_to_cancel: string }) => market.replace(ctx.session!, p),
    cancel: (_ctx, p: ActionFieldsLike & { instrument_name: string; order_id: string }) => market.cancel(p.subaccount_id, p.instrument_name, p.order_id),
    cancel_by_instrument: (_ctx, p: ActionFieldsLike & { instrument_name: string }) => ({
      cancelled_orders: market.cancelWhere(p.subaccount_id, (o) => o.instrument_name === p.instrument_name),
    }),
    cancel_by_nonce: (_ctx, p: ActionFieldsLike & { instrument_name: string; order_nonce: string }) => {
      const n = market.cancelWhere(p.subaccount_id, (o) => o.instrument_name === p.instrument_name && o.nonce === p.order_nonce);
      if (n === 0) throw new RpcFailure(11001, `no open order of subaccount ${p.subaccount_id} in ${p.instrument_name} with nonce ${p.order_nonce}`);
      return { cancelled_orders: n };
    },
    cancel_all: (_ctx, p: ActionFieldsLike) => ({ cancelled_orders: market.cancelWhere(p.subaccount_id, () => true) }),
    cancel_by_label: (_ctx, p: ActionFieldsLike & { label: string; instrument_name?: string }) => ({
      cancelled_orders: market.cancelWhere(p.subaccount_id, (o) => (o.label ?? '') === p.label && (p.instrument_name === undefined || o.instrument_name === p.instrument_name)),
    }),
  };

  /** One request through the pipeline shared by both transports: method, auth, tier 1, params, action signature, tier 2, handler. */
  const call = async (ctx: CallContext, name: string, params: unknown): Promise<unknown> => {
    const m = methodsByName.get(name);
    if (!m) throw new RpcFailure(-32601, `unknown method ${JSON.stringify(name).slice(0, 80)}`);
    if (!(m.transports as readonly string[]).includes(ctx.transport)) throw new RpcFailure(-32601, `${name} is served over ${m.transports.join(' and ')} only`);
    if (m.auth === 'login') {
      if (ctx.transport === 'http') ctx.session = accounts.verify(readProof(params, ctx.headers), ctx.ip, true);
      else if (!ctx.session) throw new RpcFailure(14000, `${name} needs public/login first`);
      if (!accounts.allows(ctx.session, m.orderFlow ? 'trade' : 'read')) throw new RpcFailure(14003, `session key ${ctx.session.signer} lacks the ${m.orderFlow ? 'trade' : 'read'} scope`);
    }
    ctx.spent = await limits.consume(m, { wallet: ctx.session?.wallet ?? null, ip: ctx.ip }, params);
    const validate = (validators.assumedParams as Record<string, ValidateFunction>)[name] ?? (validators.params as Record<string, ValidateFunction>)[name];
    if (validate) {
      const problem = describeFailures(validate, params);
      if (problem) throw new RpcFailure(-32602, problem);
    }
    if (m.orderFlow) {
      const p = params as ActionFieldsLike & Record<string, unknown>;
      verifyAction(ctx.session!, name, p);
      const instrument = typeof p.instrument_name === 'string' ? p.instrument_name : null;
      const type = instrument ? market.typeOf(instrument) : undefined;
      if (instrument && type) limits.takeToken(ctx.session!.wallet, instrument, type);
    }
    const handler = handlers[name];
    if (!handler) throw new RpcFailure(-32601, `${name} is in the spec but this sandbox does not serve it`);
    return handler(ctx, params);
  };

  const failureOf = (err: unknown): WireError => {
    if (err instanceof RpcFailure) return err.toWire();
    return errorObject(-32603, err instanceof Error ? err.message.slice(0, 200) : 'internal error');
  };

  // ---------------------------------------------------------------- WebSocket

  const onMessage = async (conn: Connection, data: RawData, isBinary: boolean) => {
    if (isBinary) return conn.send(errorFrame(null, errorObject(-32700, 'binary frames are not accepted: send JSON text frames')));
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (buf.length > options.maxFrameBytes) return conn.send(errorFrame(null, errorObject(-32600, `frame of ${buf.length} bytes is over the ${options.maxFrameBytes}-byte limit`)));
    let msg: unknown;
    try {
      msg = JSON.parse(buf.toString('utf8'));
    } catch (err) {
      return conn.send(errorFrame(null, errorObject(-32700, `not JSON: ${(err as Error).message.slice(0, 120)}`)));
    }
    if (Array.isArray(msg)) return conn.send(errorFrame(null, errorObject(-32600, 'batch requests are not supported: send one request object per frame')));
    if (!isObject(msg)) return conn.send(errorFrame(null, errorObject(-32600, `a request must be a JSON object (got ${msg === null ? 'null' : typeof msg})`)));
    if (!('id' in msg)) return conn.send(errorFrame(null, errorObject(-32600, '/id: required (string, number or null)')));
    if (!isId(msg.id)) return conn.send(errorFrame(null, errorObject(-32600, '/id: must be a string, number or null')));
    const id = msg.id;
    if (msg.jsonrpc !== '2.0') return conn.send(errorFrame(id, errorObject(-32600, `/jsonrpc: must be "2.0" (got ${JSON.stringify(msg.jsonrpc ?? null).slice(0, 40)})`)));
    if (typeof msg.method !== 'string') return conn.send(errorFrame(id, errorObject(-32600, '/method: required, a string')));
    if (msg.headers !== undefined && msg.headers !== null && !isObject(msg.headers)) return conn.send(errorFrame(id, errorObject(-32600, '/headers: must be an object or null')));
    const ctx: CallContext = { transport: 'ws', ip: conn.ip, conn, session: conn.session, headers: msg.headers, spent: null };
    try {
      const result = await call(ctx, msg.method, msg.params === undefined ? {} : msg.params);
      conn.send(replyFrame(id, result));
    } catch (err) {
      conn.send(errorFrame(id, failureOf(err)));
    }
  };

  const wss = new WebSocketServer({ noServer: true, maxPayload: Math.max(MAX_READ_BYTES, options.maxFrameBytes) });

  const onConnection = (ws: WebSocket, req: IncomingMessage) => {
    const ip = stripV6(req.socket.remoteAddress ?? 'unknown');
    ws.on('error', () => {});
    const run = perIp.get(ip);
    if (run && run.count >= options.maxConnections) {
      const error = errorObject(connectionLimitCode);
      stray.add(ws);
      ws.on('close', () => stray.delete(ws));
      ws.send(`${connectionLimitPrefix} ${errorFrame(null, error)}`);
      ws.close(1008, error.message);
      // A peer that never answers the close handshake is cut off.
      setTimeout(() => ws.terminate(), 1000).unref();
      return;
    }
    const conn = new Connection(nextId++, ws, ip);
    if (run) run.count++;
    else perIp.set(ip, { count: 1, first: conn.id });
    connections.set(conn.id, conn);
    // One request at a time per connection, so a request sent right after login sees the login.
    ws.on('message', (data, isBinary) => {
      conn.queue = conn.queue.then(() => onMessage(conn, data, isBinary)).catch((err) => conn.send(errorFrame(null, failureOf(err))));
    });
    ws.on('close', () => {
      conn.clearTimers();
      for (const address of [...conn.subscriptions]) dropSub(conn, address);
      connections.delete(conn.id);
      const left = perIp.get(ip);
      if (left && --left.count <= 0) perIp.delete(ip);
    });
  };

  // ---------------------------------------------------------------- HTTP

  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    if (res.headersSent) return;
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...CORS });
    res.end(text);
  };

  const readBody = (req: IncomingMessage, limit: number): Promise<{ text: string; tooLarge: boolean; size: number }> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= limit) chunks.push(c);
      });
      req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > limit, size }));
      req.on('error', reject);
    });

  const internals: SandboxInternals = {
    options,
    clock,
    limits,
    market,
    connections,
    subscribers,
    push,
    generate: (address) => market.produce(address),
  };

  const onHttp = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    if (path === '/control' || path.startsWith('/control/')) {
      if (!options.control) return sendJson(res, 404, { error: `no such path ${path}` });
      const body = await readBody(req, MAX_READ_BYTES);
      return handleControl(internals, req.method ?? 'GET', path, body.text, res, sendJson);
    }
    // Browsers (the docs' live examples) preflight POSTs carrying JSON and the login headers.
    if (req.method === 'OPTIONS' && path.startsWith('/v3/')) {
      res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-headers': ['content-type', ...Object.values(loginTable.headers)].join(', '), 'access-control-max-age': '600' });
      return res.end();
    }
    const rpc = (status: number, id: unknown, result: unknown, error?: WireError) =>
      sendJson(res, status, error ? { jsonrpc: '2.0', id, error } : { jsonrpc: '2.0', id, result });
    const fail = (id: unknown, error: WireError) => rpc(httpStatusOf(error.code), id, undefined, error);
    const m = methodTable.find((x) => x.httpPath === path);
    if (!m) return fail(null, errorObject(-32601, `no method at ${path} (HTTP methods: ${methodTable.filter((x) => x.httpPath).map((x) => x.httpPath).join(', ')})`));
    if (req.method !== 'POST') return fail(null, errorObject(-32601, `${path} takes POST (got ${req.method})`));
    const body = await readBody(req, options.maxFrameBytes);
    if (body.tooLarge) return fail(null, errorObject(-32600, `body of ${body.size} bytes is over the ${options.maxFrameBytes}-byte limit`));
    let parsed: unknown = {};
    if (body.text.trim() !== '') {
      try {
        parsed = JSON.parse(body.text);
      } catch (err) {
        return fail(null, errorObject(-32700, `body is not JSON: ${(err as Error).message.slice(0, 120)}`));
      }
    }
    // The body is the params; a full JSON-RPC request object is accepted too (its id is echoed).
    let id: unknown = null;
    let params: unknown = parsed;
    if (isObject(parsed) && 'jsonrpc' in parsed) {
      id = isId(parsed.id) ? parsed.id : null;
      params = parsed.params === undefined ? {} : parsed.params;
    }
    const ip = stripV6(req.socket.remoteAddress ?? 'unknown');
    const ctx: CallContext = { transport: 'http', ip, conn: null, session: null, headers: req.headers, spent: null };
    try {
      rpc(200, id, await call(ctx, m.name, params));
    } catch (err) {
      fail(id, failureOf(err));
    }
  };

  const server = createServer((req, res) => {
    onHttp(req, res).catch((err) => sendJson(res, 500, { jsonrpc: '2.0', id: null, error: errorObject(-32603, String((err as Error)?.message ?? err).slice(0, 200)) }));
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => {});
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    if (path !== '/v3/ws' || closed) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, req));
  });

  // ---------------------------------------------------------------- teardown, listen, timers

  const intervals: NodeJS.Timeout[] = [];
  /** Stop everything: timers, sockets, the WebSocket and HTTP servers, limiter records. Safe on a server that never listened. */
  const shutdown = async () => {
    closed = true;
    for (const t of intervals) clearInterval(t);
    intervals.length = 0;
    for (const conn of connections.values()) {
      conn.clearTimers();
      conn.ws.terminate();
    }
    for (const ws of stray) ws.terminate();
    connections.clear();
    subscribers.clear();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    if (server.listening) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    await limits.close();
  };

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    // Nothing may keep the process alive after a failed start (EADDRINUSE, an unknown host, …).
    await shutdown();
    throw err;
  }
  server.on('error', () => {});

  // Timers start only once the server listens, so a failed start leaves none behind.
  const every = (ms: number, fn: () => void) => {
    intervals.push(
      setInterval(() => {
        try {
          fn();
        } catch {
          // A market step that throws must not take the server down; the next tick starts fresh.
        }
      }, ms),
    );
  };
  every(options.market.intervalMs, () => market.tick());
  for (const v of market.intervals()) every(Number(v), () => market.publishInterval(v));
  // Heartbeat: ping, re-verify stored logins, forget nonces whose signatures have expired.
  every(options.login.reverifyIntervalMs, () => {
    const now = clock.now();
    for (const [k, expiry] of usedNonces) if (expiry < now) usedNonces.delete(k);
    for (const conn of connections.values()) {
      if (conn.ws.readyState === WebSocket.OPEN) conn.ws.ping();
      if (!conn.session) continue;
      try {
        const again = accounts.verify(conn.session.proof, conn.ip, false);
        conn.session = { ...again, subaccounts: conn.session.subaccounts.filter((s) => again.subaccounts.includes(s)) };
      } catch {
        conn.session = null;
      }
      for (const address of [...conn.subscriptions]) if ('reason' in refusal(conn, address)) dropSub(conn, address);
    }
  });

  const port = (server.address() as AddressInfo).port;
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  const httpUrl = `http://${hostPart}:${port}`;

  return {
    wsUrl: `ws://${hostPart}:${port}/v3/ws`,
    httpUrl,
    controlUrl: options.control ? `${httpUrl}/control` : null,
    publish: (address, data) => (closed ? 0 : push(address, data)),
    close: async () => {
      if (closed) return;
      await shutdown();
    },
  };
}
