/** Test helpers: real sandboxes on port 0, a tiny JSON-RPC client over `ws`, real ethers signatures. */
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import { Wallet, type Signer } from 'ethers';
import { signAction, signLogin, newNonce } from '@exchange-api/auth';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/index';

const running: Sandbox[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Start a sandbox that the test's afterEach closes. */
export async function start(options: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox(options);
  running.push(sb);
  return sb;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

  private constructor(readonly ws: WebSocket) {
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
    ws.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
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

  /** Wait for a frame (already received or future) passing the test. */
  next(test: (f: Received) => boolean, timeoutMs = 5000, from = 0): Promise<Received> {
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
    return (await this.next((f) => f.json?.id === id && f.json?.method === undefined, 5000, from)).json;
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

  nextPush(channel: string, timeoutMs = 5000, test: (data: any) => boolean = () => true): Promise<any> {
    return this.next(
      (f) => f.json?.method === 'subscription' && f.json.params?.channel === channel && test(f.json.params.data),
      timeoutMs,
    ).then((f) => f.json.params.data);
  }

  async login(signer: Signer, wallet?: string): Promise<number[]> {
    return this.call('public/login', await signLogin(signer, wallet ? { wallet } : {}));
  }

  close(): void {
    this.ws.close();
  }
}

/** Sign an order-flow request as the spec's action-signature assumption says. */
export async function signed(
  signer: Signer,
  method: string,
  params: Record<string, unknown> & { subaccount_id: number },
  opts: { expiry?: number; nonce?: string } = {},
) {
  return signAction(signer, method, {
    nonce: opts.nonce ?? newNonce(),
    signature_expiry_sec: opts.expiry ?? Math.floor(Date.now() / 1000) + 600,
    ...params,
  });
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

/** Call the control plane. */
export async function control(sb: Sandbox, action: string, body: unknown = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(
    `${sb.httpUrl}/control/${action}`,
    action === 'connections' ? {} : { method: 'POST', body: JSON.stringify(body) },
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
