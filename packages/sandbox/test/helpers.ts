/** Test helpers: real sandboxes on port 0, a tiny JSON-RPC client over `ws`, real ethers signatures. */
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import { Wallet, type Signer } from 'ethers';
import { signAction, signLogin, newNonce, moduleOfMethod } from '@exchange-api/auth';
import { defaultInstruments, startSandbox, type Sandbox, type SandboxOptions } from '../src/index';
import { assetOf } from '../src/market/instrument';

const running: Sandbox[] = [];
/** The instruments of the sandbox started last: what an order's signature commits to. */
let listed = defaultInstruments;
const sockets: WebSocket[] = [];

/**
 * What each test leaves is ended after it (test/setup.ts registers this for every file: the module is shared
 * by the files a worker runs, so a hook of its own would be registered in the first file only).
 */
export async function endTestSandboxes(): Promise<void> {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(running.splice(0).map((s) => s.close()));
  // The next test (in this file or the next) signs for the default instruments until it starts otherwise:
  // the two books fleet-shared signed for made every order of the fleet tests after it "Invalid action signature".
  listed = defaultInstruments;
}

/** Start a sandbox that the test's afterEach closes. */
export async function start(options: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox(options);
  running.push(sb);
  listed = options.instruments ?? defaultInstruments;
  return sb;
}

/** Sign orders for these instruments (a sandbox started otherwise than by start(), such as a fleet's member). */
export function signFor(instruments: SandboxOptions['instruments']): void {
  listed = instruments ?? defaultInstruments;
}

/** How long a test waits for what must come before calling it a hang (a loaded machine included). */
export const HANG_MS = 15_000;

/** A frame received, with when it arrived. */
export interface Received {
  at: number;
  text: string;
  json: any;
}

/** A minimal JSON-RPC client: every frame is kept; calls resolve with the reply of their id. */
export class Client {
  readonly frames: Received[] = [];
  private waiters: Array<{ test: (f: Received) => boolean; resolve: (f: Received) => void }> = [];
  private nextId = 1;
  closed: { code: number; reason: string } | null = null;

  /** Resolves when the socket has closed, whoever closed it. */
  readonly whenClosed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    this.whenClosed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closed = { code, reason: String(reason) };
        resolve(this.closed);
      }),
    );
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '<binary>' : String(data);
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch {
        // kept as text: garbage frames and the connection-limit frame are not JSON
      }
      const f = { at: Date.now(), text, json };
      this.frames.push(f);
      this.waiters = this.waiters.filter((w) => (w.test(f) ? (w.resolve(f), false) : true));
    });
    ws.on('error', () => {});
  }

  static async connect(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    sockets.push(ws);
    const c = new Client(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return c;
  }

  /**
   * Wait for a frame (already received or future) passing the test. The bound only catches a hang: a
   * frame that comes comes well within it, however loaded the machine.
   */
  next(test: (f: Received) => boolean, timeoutMs = HANG_MS, from = 0): Promise<Received> {
    const have = this.frames.slice(from).find(test);
    if (have) return Promise.resolve(have);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () =>
          reject(
            new Error(
              `no matching frame within ${timeoutMs} ms; last: ${this.frames
                .slice(-3)
                .map((f) => f.text.slice(0, 200))
                .join(' | ')}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ test, resolve: (f) => (clearTimeout(t), resolve(f)) });
    });
  }

  send(text: string | Buffer, binary = false): void {
    this.ws.send(text, { binary });
  }

  /** Send a request and resolve with the whole reply object ({id, result} or {id, error}). */
  async request(method: string, params: unknown = {}, extra: Record<string, unknown> = {}): Promise<any> {
    const id = this.nextId++;
    const from = this.frames.length;
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, params, ...extra }));
    return (await this.next((f) => f.json?.id === id && f.json?.method === undefined, HANG_MS, from)).json;
  }

  /** Resolve with the result, or throw the error object. */
  async call(method: string, params: unknown = {}, extra: Record<string, unknown> = {}): Promise<any> {
    const reply = await this.request(method, params, extra);
    if (reply.error) throw Object.assign(new Error(`${method}: ${JSON.stringify(reply.error)}`), { rpc: reply.error });
    return reply.result;
  }

  /** Data of every notification on a channel so far. */
  pushes(channel: string): any[] {
    return this.frames
      .filter((f) => f.json?.method === 'subscription' && f.json.params?.channel === channel)
      .map((f) => f.json.params.data);
  }

  nextPush(channel: string, timeoutMs = HANG_MS, test: (data: any) => boolean = () => true): Promise<any> {
    return this.next(
      (f) => f.json?.method === 'subscription' && f.json.params?.channel === channel && test(f.json.params.data),
      timeoutMs,
    ).then((f) => f.json.params.data);
  }

  async login(signer: Signer, wallet?: string): Promise<number[]> {
    return this.call('public/login', await signLogin(signer, wallet ? { wallet } : {}));
  }

  /** Resolve once `done()` holds, looked at as each frame arrives (the frames so far first). */
  async until(done: () => boolean, timeoutMs = HANG_MS): Promise<void> {
    if (!done()) await this.next(() => done(), timeoutMs, this.frames.length);
  }

  /**
   * A round trip: a request the sandbox answers without spending any budget (an unknown method, -32601).
   * It answers one connection in order, so once this resolves every frame it sent before is here.
   */
  async roundTrip(): Promise<void> {
    expect((await this.request('test.roundTrip')).error.code).toBe(-32601);
  }

  /** Resolve on the next ping the sandbox's heartbeat sends this connection. */
  nextPing(timeoutMs = HANG_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no ping within ${timeoutMs} ms`)), timeoutMs);
      this.ws.once('ping', () => (clearTimeout(t), resolve()));
    });
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * An order-flow request as a client sends it: a signed method (private/order, private/replace) signed
 * as the public clients sign (the action-signature assumption) for the asset of its instrument in the
 * sandbox started last, for `owner` (default: the signer's wallet); a cancel as it is (no signature).
 */
export async function signed(
  signer: Signer,
  method: string,
  params: Record<string, unknown> & { subaccount_id: number },
  opts: { expiry?: number; nonce?: string; owner?: string } = {},
): Promise<Record<string, unknown>> {
  if (moduleOfMethod(method) === null) return params;
  const cfg = listed.find((i) => i.instrument_name === params.instrument_name);
  // An instrument the sandbox does not list has no asset: any will do, the order is refused for it.
  const asset = cfg ? assetOf(cfg) : { address: `0x${'0'.repeat(40)}`, subId: '0' };
  return signAction(
    signer,
    method,
    {
      nonce: opts.nonce ?? newNonce(),
      signature_expiry_sec: opts.expiry ?? Math.floor(Date.now() / 1000) + 600,
      ...params,
    },
    { owner: opts.owner, instrument: { base_asset_address: asset.address, base_asset_sub_id: asset.subId } },
  );
}

export const newWallet = () => Wallet.createRandom();

/** POST a JSON body to the sandbox. */
export async function post(
  sb: Sandbox,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const res = await fetch(sb.httpUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return readBody(res);
}

/** Call the control plane: GET for what it reports, else POST with a JSON body. */
export async function control(sb: Sandbox, action: string, body: unknown = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(
    `${sb.httpUrl}/control/${action}`,
    action === 'connections' || action === 'status'
      ? {}
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  return readBody(res);
}

/** The status and the body, parsed when it is JSON and kept as text when it is not (tests assert on both). */
async function readBody(res: Response): Promise<{ status: number; json: any }> {
  const text = await res.text();
  try {
    return { status: res.status, json: JSON.parse(text) };
  } catch {
    return { status: res.status, json: text };
  }
}

/**
 * A quiet market (no tick during a test) with one instrument at 100: TEST-PERP, best bid 99.98, best ask
 * 100.02, tick 0.01, step 0.1; budgets wide enough that the order tests never meet a rate limit.
 */
export const quietMarket = {
  market: { intervalMs: 60_000 },
  limits: { matching: { points: 100 }, bucket_perp_spot: { capacity: 100 } },
  instruments: [
    {
      instrument_name: 'TEST-PERP',
      instrument_type: 'perp' as const,
      base_currency: 'TST',
      tick_size: '0.01',
      amount_step: '0.1',
      price: 100,
    },
  ],
} satisfies SandboxOptions;
