/**
 * Sandbox soak: 4 connections per IP from 25 loopback addresses (127.0.0.x, the client socket bound
 * with `localAddress`), each subscribed to every public channel, churning (close, reconnect,
 * resubscribe) for 60 s (EXCHANGE_API_SOAK_SECONDS shortens it), with a slow reader among them that
 * stops reading for seconds at a time. The sandbox runs in a child process of its own, so that its
 * memory is measured alone (heap and buffers after a full GC): at the end ÷ at the start, with the
 * same 100 connections subscribed both times. Target <= 1.5. A second line fails loudly (MISS) if
 * any connection slot leaked (a slot still held, or refused, after its connection closed) or any
 * request went unanswered. All traffic goes to loopback; connections and time are bounded.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { channelTable, fillAddress } from '@exchange-api/types';
import type { BenchResult } from './report';

const IPS = 25;
const PER_IP = 4;

/** The soak's length from the environment: 60 s by default, 1 to 600 s when given, else null. */
function soakSeconds(raw: string | undefined): number | null {
  if (raw === undefined) return 60;
  const n = Number(raw);
  return /^[0-9]+$/.test(raw) && n >= 1 && n <= 600 ? n : null;
}
/** Every wait has a bound: a reply, an open, a close. */
const REPLY_MS = 10_000;
/** How long a connection may be refused by the connection limit after its slot's previous one closed. */
const SLOT_GRACE_MS = 5_000;
/** The market ticks every 500 ms here: the churn, not the fan-out (measured by sandbox-fanout), is under test. */
const MARKET_TICK_MS = 500;

// ---------------------------------------------------------------- the sandbox's side (child process)

/** Runs in the child: start the sandbox, answer memory probes after a full GC, close on request. */
async function serveInChild(): Promise<void> {
  const { startSandbox } = await import('@exchange-api/sandbox');
  const sandbox = await startSandbox({
    control: true,
    limits: { public: { points: 1_000_000 }, non_matching: { points: 1_000_000 } },
    market: { intervalMs: MARKET_TICK_MS },
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', async (m: { type: string }) => {
    if (m.type === 'memory') {
      for (let i = 0; i < 3; i++) gc?.();
      const u = process.memoryUsage();
      process.send!({ type: 'memory', bytes: u.heapUsed + u.external, rss: u.rss });
    } else if (m.type === 'stop') {
      await sandbox.close();
      process.exit(0);
    }
  });
  process.send!({ type: 'ready', wsUrl: sandbox.wsUrl, httpUrl: sandbox.httpUrl });
}

if (process.env.EXCHANGE_API_SOAK_SERVER === '1') void serveInChild();

/** The child running the sandbox, and a way to ask it something. */
class SandboxProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly wsUrl: string,
    readonly httpUrl: string,
  ) {}

  static start(): Promise<SandboxProcess> {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: [...process.execArgv, '--expose-gc'],
      env: { ...process.env, EXCHANGE_API_SOAK_SERVER: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => (child.kill('SIGKILL'), reject(new Error('the soak sandbox did not start within 60 s'))),
        60_000,
      );
      child.once('exit', (code) => reject(new Error(`the soak sandbox exited with ${code} before it was ready`)));
      child.once('message', (m: { type: string; wsUrl: string; httpUrl: string }) => {
        clearTimeout(timer);
        resolve(new SandboxProcess(child, m.wsUrl, m.httpUrl));
      });
    });
  }

  /** The sandbox's heap and buffers after a full GC, in bytes. */
  memory(): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no memory reading within 30 s')), 30_000);
      this.child.once('message', (m: { bytes: number }) => (clearTimeout(timer), resolve(m.bytes)));
      this.child.send({ type: 'memory' });
    });
  }

  /** Ask the sandbox to close; kill it if it has not exited within 10 s. */
  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- the clients' side

/** What the run saw, for the verdict. */
interface Tally {
  connections: number;
  requests: number;
  unanswered: number;
  /** Connections refused by the connection limit for longer than SLOT_GRACE_MS after the slot was free. */
  leakedSlots: number;
}

/** One client connection: requests answered by id, pushes counted, never parsed. */
class SoakClient {
  private nextId = 1;
  private readonly pending = new Map<number, () => void>();
  closed = false;

  private constructor(
    readonly ws: WebSocket,
    private readonly tally: Tally,
  ) {
    ws.on('message', (data) => {
      const text = String(data);
      // Replies start with their id; pushes with the method, so a push costs no JSON parse.
      if (!text.startsWith('{"jsonrpc":"2.0","id":')) return;
      const id = Number(/^\{"jsonrpc":"2\.0","id":([0-9]+)/.exec(text)?.[1]);
      this.pending.get(id)?.();
    });
    ws.on('close', () => {
      this.closed = true;
      this.tally.unanswered += this.pending.size;
      this.pending.clear();
    });
  }

  /** Open a connection from `localAddress`; null when the connection limit refused it. */
  static open(url: string, localAddress: string, tally: Tally): Promise<SoakClient | null> {
    const ws = new WebSocket(url, { localAddress });
    ws.on('error', () => {});
    return new Promise((resolve) => {
      const timer = setTimeout(() => (ws.terminate(), resolve(null)), REPLY_MS);
      ws.once('message', (data) => {
        // A refused connection's only frame is the connection-limit frame.
        if (!String(data).startsWith('connectionLimitExceeded:')) return;
        clearTimeout(timer);
        ws.terminate();
        resolve(null);
      });
      ws.once('open', () => {
        // The refusal frame arrives right after open: give it a moment before calling this a connection.
        setTimeout(() => {
          clearTimeout(timer);
          if (ws.readyState !== WebSocket.OPEN) return resolve(null);
          tally.connections++;
          resolve(new SoakClient(ws, tally));
        }, 50);
      });
      ws.once('close', () => (clearTimeout(timer), resolve(null)));
    });
  }

  /** Send a request and wait for its answer (any answer); an unanswered one is counted. */
  request(method: string, params: unknown): Promise<void> {
    const id = this.nextId++;
    this.tally.requests++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) this.tally.unanswered++;
        resolve();
      }, REPLY_MS);
      this.pending.set(id, () => (clearTimeout(timer), this.pending.delete(id), resolve()));
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /** Close and wait until the socket is closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    const done = new Promise<void>((resolve) => this.ws.once('close', () => resolve()));
    this.ws.close();
    const timer = setTimeout(() => this.ws.terminate(), 2000);
    await done;
    clearTimeout(timer);
  }
}

/** Every public address the sandbox serves: each public channel with every enum value, instrument and currency. */
async function publicAddresses(httpUrl: string): Promise<string[]> {
  const post = async (method: string, params: object) => {
    const res = await fetch(`${httpUrl}/v3/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    return ((await res.json()) as { result: unknown }).result;
  };
  // The list names the instruments; each one's currency is its record's.
  const names = (await post('public/get_all_live_instruments', {})) as string[];
  const currencies = new Set<string>();
  for (const instrument_name of names)
    currencies.add(
      ((await post('public/get_instrument', { instrument_name })) as { base_currency: string }).base_currency,
    );
  const values: Record<string, string[]> = { instrument_name: names, currency: [...currencies] };
  const out: string[] = [];
  for (const ch of channelTable.filter((c) => c.access === 'public')) {
    let combos: Array<Record<string, string>> = [{}];
    for (const p of ch.parameters) {
      const options = (p as { enum?: readonly string[] | null }).enum ?? values[p.name] ?? [];
      combos = combos.flatMap((c) => options.map((v) => ({ ...c, [p.name]: String(v) })));
    }
    out.push(...combos.map((c) => fillAddress(ch.address, c)));
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ipOf = (i: number) => `127.0.0.${10 + i}`;

/** Open a connection for a slot, retrying while the limit still counts the slot's previous one. */
async function openSlot(url: string, ip: string, tally: Tally): Promise<SoakClient | null> {
  const until = Date.now() + SLOT_GRACE_MS;
  while (Date.now() < until) {
    const c = await SoakClient.open(url, ip, tally);
    if (c) return c;
    await sleep(100);
  }
  tally.leakedSlots++;
  return null;
}

/** A slow reader: its socket stops reading for 2 s at a time while the sandbox keeps pushing. */
function stallNow(c: SoakClient): Promise<void> {
  const socket = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  return sleep(2000).then(() => socket.resume());
}

/** One slot's life until the deadline: connect, subscribe to everything, stay a while, leave; again. */
async function churn(
  url: string,
  ip: string,
  addresses: string[],
  slow: boolean,
  deadline: number,
  tally: Tally,
  seed: number,
): Promise<void> {
  let n = seed;
  const random = () => (n = (n * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  while (Date.now() < deadline) {
    const c = await openSlot(url, ip, tally);
    if (!c) return;
    await c.request('subscribe', { channels: addresses });
    const stay = Date.now() + 500 + random() * 3000;
    while (Date.now() < stay && Date.now() < deadline && !c.closed) {
      if (slow) await stallNow(c);
      await c.request(
        random() < 0.5 ? 'public/getRateLimits' : 'unsubscribe',
        random() < 0.5 ? {} : { channels: addresses.slice(0, 3) },
      );
      await sleep(200 + random() * 500);
    }
    if (random() < 0.5 && !c.closed) await c.request('unsubscribe', {});
    await c.close();
  }
}

/** Every slot connected and subscribed to everything: the state both memory readings are taken in. */
async function fillEverySlot(url: string, addresses: string[], tally: Tally): Promise<SoakClient[]> {
  const clients: SoakClient[] = [];
  for (let i = 0; i < IPS; i++) {
    const four = await Promise.all(Array.from({ length: PER_IP }, () => openSlot(url, ipOf(i), tally)));
    for (const c of four) if (c) clients.push(c);
  }
  await Promise.all(clients.map((c) => c.request('subscribe', { channels: addresses })));
  return clients;
}

/** How many connections the sandbox still lists once every client has gone (0 when no slot leaked). */
async function connectionsLeft(httpUrl: string): Promise<number> {
  let left = -1;
  for (let i = 0; i < 50 && left !== 0; i++) {
    left = ((await (await fetch(`${httpUrl}/control/connections`)).json()) as unknown[]).length;
    if (left !== 0) await sleep(100);
  }
  return left;
}

/** Run the soak: the memory ratio, and the count of leaked slots and unanswered requests. */
export async function runSoak(): Promise<BenchResult[]> {
  const seconds = soakSeconds(process.env.EXCHANGE_API_SOAK_SECONDS);
  if (seconds === null) {
    console.error(
      `bench sandbox soak: EXCHANGE_API_SOAK_SECONDS must be a whole number of ` +
        `seconds from 1 to 600 (got ${JSON.stringify(process.env.EXCHANGE_API_SOAK_SECONDS)})`,
    );
    return [{ name: 'sandbox soak memory end/start (not run)', value: NaN, op: '<=', target: 1.5 }];
  }
  const sandbox = await SandboxProcess.start();
  const tally: Tally = { connections: 0, requests: 0, unanswered: 0, leakedSlots: 0 };
  try {
    const addresses = await publicAddresses(sandbox.httpUrl);
    const warm = await fillEverySlot(sandbox.wsUrl, addresses, tally);
    await sleep(2000);
    const start = await sandbox.memory();
    await Promise.all(warm.map((c) => c.close()));
    const deadline = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: IPS * PER_IP }, (_, k) =>
        churn(sandbox.wsUrl, ipOf(k % IPS), addresses, k === 0, deadline, tally, k + 1),
      ),
    );
    if ((await connectionsLeft(sandbox.httpUrl)) !== 0) tally.leakedSlots++;
    const last = await fillEverySlot(sandbox.wsUrl, addresses, tally);
    await sleep(2000);
    const end = await sandbox.memory();
    await Promise.all(last.map((c) => c.close()));
    if ((await connectionsLeft(sandbox.httpUrl)) !== 0) tally.leakedSlots++;
    const faults = tally.leakedSlots + tally.unanswered;
    if (faults > 0)
      console.error(
        `bench sandbox soak: ${tally.leakedSlots} leaked connection slot(s), ${tally.unanswered} unanswered request(s)`,
      );
    return [
      { name: 'sandbox soak memory end/start', value: end / start, op: '<=', target: 1.5 },
      {
        name:
          `sandbox soak leaked slots + unanswered requests (${seconds} s, ${tally.connections}` +
          ` connections, ${tally.requests} requests, ${addresses.length} public channels each)`,
        value: faults,
        op: '<=',
        target: 0,
      },
    ];
  } finally {
    await sandbox.stop();
  }
}
