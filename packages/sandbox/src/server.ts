/**
 * The sandbox server, as a composition root: one Node `http` server carrying the WebSocket (JSON-RPC
 * 2.0 at /v3/ws), the HTTP POST methods (/v3/public/*, /v3/private/*) and, only when asked for, the
 * control plane (/control/*); with `wsPort` (the derive-local preset) a second server on that port, the
 * WebSocket's own. This file only wires the parts; each part is one idea in its own file:
 * connection, subscriptions, admission, access, actions, pipeline, handlers, ws-transport,
 * http-transport, control, control-guard, timers, faults.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { normalizeAddress } from '@exchange-api/auth';
import { parseFixed } from './fixed';
import { RpcFailure } from './rpc';
import { resolveOptions, type ResolvedOptions, type SandboxOptions } from './options';
import { Clock } from './clock';
import { Limits } from './limits';
import { Accounts } from './accounts';
import { Market } from './market';
import { ConnectionRegistry } from './connection';
import { SubscriptionIndex } from './subscriptions';
import { ChannelAccess } from './access';
import { ActionVerifier } from './actions';
import { createPipeline, type Handler } from './pipeline';
import { createHandlers } from './handlers';
import { MAX_READ_BYTES, WsTransport } from './ws-transport';
import { createHttpListener } from './http-transport';
import { handleControl, type ControlPlane, type DepositTarget } from './control';
import { sandboxSteps, startTimers, type HeartbeatParts } from './timers';
import { Faults } from './faults';
import type { SandboxState } from './state/sandbox-state';
import { memoryState } from './state/memory';

export { MAX_SUBSCRIPTIONS_PER_CONNECTION } from './subscriptions';
export { MAX_READ_BYTES } from './ws-transport';

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
  /**
   * With `redis`: this member's id in the fleet and the instruments whose books it owns now (they
   * move when members join or die). Null alone.
   */
  fleet: { member: string; owned(): string[] } | null;
  /** Terminate every connection and timer and stop listening (a fleet member gives its books back first). */
  close(): Promise<void>;
}

/** Every part of one sandbox, wired on its state (its own, or a fleet's: counts, nonces, books, the bus). */
function assemble(options: ResolvedOptions, clock: Clock, state: SandboxState, faults: Faults) {
  const limits = new Limits(options, clock, state.windows, state.buckets);
  const accounts = new Accounts(options, clock, state.shared);
  const connections = new ConnectionRegistry();
  const index = new SubscriptionIndex();
  const admission = state.slots;
  let market: Market | null = null;
  const publisher = state.publisher(index, (id) => market?.restingOf(id));
  market = new Market(options, clock, accounts, publisher, state.ownership);
  const m = market;
  const access = new ChannelAccess(
    { hasInstrument: (n) => m.instruments.has(n), hasCurrency: (c) => m.currencies.has(c) },
    accounts,
  );
  const nonces = state.nonces;
  const actions = new ActionVerifier(clock, accounts, nonces, options.actionDeployments, (n) => m.assetOf(n));
  const parts = { accounts, access, admission, index, limits, market, clock, actions, connections };
  const handlers = settling(createHandlers(parts), state);
  const forward = state.router({ index, accounts, handlers, books: m, faults });
  const pipeline = createPipeline({
    accounts,
    limits,
    actions,
    instrumentType: (n) => m.typeOf(n),
    handlers,
    forward: forward ?? undefined,
  });
  const ws = new WsTransport({
    maxFrameBytes: options.maxFrameBytes,
    admission,
    connections,
    index,
    pipeline,
    faults,
    allowedOrigins: options.allowedOrigins,
  });
  const heartbeat: HeartbeatParts = { clock, accounts, access, connections, index, nonces };
  return { clock, limits, connections, index, admission, market, pipeline, ws, heartbeat, faults, accounts, handlers };
}

type Parts = ReturnType<typeof assemble>;

/**
 * Each handler answers once what it shared (a key, a freeze, …) is every member's: served here or routed
 * here, a request is answered only when a check on any member would see its change.
 */
function settling(handlers: Record<string, Handler>, state: SandboxState): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const [name, handler] of Object.entries(handlers))
    out[name] = (ctx, params) => state.shared.during(async () => handler(ctx, params));
  return out;
}

/** The control plane's view of the sandbox: what it may do, nothing more. */
function controlPlane({ clock, limits, connections, index, market, faults }: Parts): ControlPlane {
  return {
    status: () => ({ nowMs: clock.now(), connections: connections.size, errors: faults.status() }),
    connections: () =>
      connections.select().map((c) => ({
        id: c.id,
        ip: c.ip,
        wallet: c.session?.wallet ?? null,
        subaccounts: c.session?.subaccounts ?? [],
        subscriptions: [...c.subscriptions],
      })),
    drop: (id) => {
      const list = connections.select(id);
      for (const c of list) c.terminate();
      return list.length;
    },
    delay: (ms, id) => {
      const list = connections.select(id);
      for (const c of list) c.delayMs = ms;
      return list.length;
    },
    sendRaw: (text, id) => {
      const list = connections.select(id);
      for (const c of list) c.send(text);
      return list.length;
    },
    push: (address, data) => index.push(address, data),
    generate: (address) => market.produce(address),
    advance: async (ms) => {
      clock.checkAdvance(ms);
      await limits.advance(ms);
      const now = clock.advance(ms);
      // Trigger orders whose signature expired meanwhile expire; TWAP slices due meanwhile run.
      market.triggers.sweep();
      market.algos.sweep();
      market.rfq.sweep();
      market.settleClock();
      return now;
    },
    mark: (instrument, price) => market.moveMark(instrument, price),
    deposit: (to, asset, amount, pending) => depositByControl(market, to, asset, amount, pending),
  };
}

/** The control plane's deposit: straight to the subaccount, or seen on chain and pending first. */
function depositByControl(market: Market, to: DepositTarget, asset: string, amount: string, pending: boolean) {
  const x = parseFixed(amount);
  if (x === null) return { error: `amount must be a decimal (got ${amount.slice(0, 40)})` };
  let wallet: string;
  let subaccount: number | undefined;
  let type: 'standard' | 'instant' | 'direct' | undefined;
  if ('depositAddress' in to) {
    const found = market.risk.deposits.resolve(normalizeAddress(to.depositAddress) ?? to.depositAddress);
    if (!found)
      return { error: `deposit_address ${to.depositAddress} was not registered (public/register_deposit_address)` };
    ({ wallet, subaccount, type } = found);
  } else {
    const w = normalizeAddress(to.wallet);
    if (!w) return { error: `wallet must be an address (got ${to.wallet.slice(0, 60)})` };
    ({ wallet, subaccount } = { wallet: w, subaccount: to.subaccount });
  }
  try {
    if (pending) return market.risk.deposits.seen(wallet, asset, x, subaccount, type);
    return market.funds.deposit(wallet, asset, x, subaccount);
  } catch (err) {
    if (err instanceof RpcFailure) return { error: err.data ?? err.message };
    throw err;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The one Node server: HTTP through the HTTP transport, upgrades of /v3/ws to the WebSocket transport. */
function createNodeServer(options: ResolvedOptions, parts: Parts, isClosed: () => boolean): Server {
  const wsPaths = ['/v3/ws', ...(options.preset ? [options.preset.wsPath] : [])];
  const control = options.control ? controlPlane(parts) : null;
  const server = createServer(
    createHttpListener({
      maxFrameBytes: options.maxFrameBytes,
      maxControlBytes: MAX_READ_BYTES,
      pipeline: parts.pipeline,
      control: control && ((method, path, text) => handleControl(control, method, path, text)),
      listenHost: options.host,
      faults: parts.faults,
      rootPaths: options.preset?.rootPaths ?? false,
    }),
  );
  // A request Node cannot parse, or a reset: the peer's doing, and only its socket goes; counted, and said
  // once (faults.ts).
  server.on('clientError', (err, socket) => {
    parts.faults.report('server', 'HTTP client', err);
    socket.destroy();
  });
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', (err) => parts.faults.report('server', 'a WebSocket socket', err));
    if (isClosed() || !wsPaths.includes((req.url ?? '').split('?')[0]!))
      return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    parts.ws.upgrade(req, socket, head);
  });
  return server;
}

/** Stop everything: sockets, the WebSocket and HTTP servers, limiter records (safe if it never listened). */
async function release(parts: Parts, state: SandboxState, servers: Server[], faults: Faults): Promise<void> {
  await state.leave(parts.market);
  parts.connections.terminateAll();
  parts.index.clear();
  try {
    await parts.admission.clear();
  } catch (err) {
    faults.report('server', 'giving back connection slots', err);
  }
  await parts.ws.close();
  for (const server of servers)
    if (server.listening)
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
  await parts.limits.close();
}

/** Where a listening sandbox is reached: the WebSocket on its own port (at the preset's path) when it has one. */
function urlsOf(
  options: ResolvedOptions,
  server: Server,
  wsServer: Server | null,
): Pick<Sandbox, 'wsUrl' | 'httpUrl' | 'controlUrl'> {
  const port = (server.address() as AddressInfo).port;
  const hostPart = options.host.includes(':') ? `[${options.host}]` : options.host;
  const httpUrl = `http://${hostPart}:${port}`;
  const wsPort = wsServer ? (wsServer.address() as AddressInfo).port : port;
  const wsPath = wsServer && options.preset ? options.preset.wsPath : '/v3/ws';
  return {
    wsUrl: `ws://${hostPart}:${wsPort}${wsPath}`,
    httpUrl,
    controlUrl: options.control ? `${httpUrl}/control` : null,
  };
}

/** Start a sandbox. Options are checked first (SandboxOptionsError names a bad key). */
export async function startSandbox(input: SandboxOptions = {}): Promise<Sandbox> {
  const options = resolveOptions(input);
  const clock = new Clock();
  const faults = new Faults();
  // The one choice of where the state lives. The Redis client is loaded only here, only with `redis` or
  // `redisCluster`: alone, the sandbox loads none.
  const state =
    options.redis || options.redisCluster
      ? await (await import('./redis/fleet')).Fleet.join(options, clock, faults)
      : memoryState(options);
  const parts = assemble(options, clock, state, faults);
  let closed = false;
  const server = createNodeServer(options, parts, () => closed);
  // The same listener on the WebSocket's own port: derive-ts's local network puts it apart from HTTP.
  const wsServer = options.wsPort === null ? null : createNodeServer(options, parts, () => closed);
  const servers = wsServer ? [server, wsServer] : [server];

  let stopTimers = () => {};
  const shutdown = async () => {
    closed = true;
    stopTimers();
    await release(parts, state, servers, faults);
  };

  try {
    await state.start({ ...parts, books: parts.market });
    await listen(server, options.port, options.host);
    if (wsServer) await listen(wsServer, options.wsPort!, options.host);
  } catch (err) {
    // Nothing may keep the process alive after a failed start (EADDRINUSE, an unknown host, …).
    await shutdown();
    throw err;
  }
  for (const s of servers) s.on('error', (err) => parts.faults.report('server', 'the HTTP server', err));
  // Timers start only once the server listens, so a failed start leaves none behind.
  const { market, heartbeat } = parts;
  stopTimers = startTimers(
    sandboxSteps(market, options.market.intervalMs, options.login.reverifyIntervalMs, heartbeat),
    faults,
  );

  return {
    ...urlsOf(options, server, wsServer),
    publish: (address, data) => (closed ? 0 : parts.index.push(address, data)),
    fleet: state.member && { member: state.member.id, owned: state.member.owned },
    close: async () => {
      if (closed) return;
      await shutdown();
    },
  };
}
