/**
 * An SDK generated (`generate --out`) for another API, whose limits and error codes are not the
 * exchange's (test/sdk/fixtures/metered.asyncapi.yaml: 3 calls a minute, rate-limit error -40001,
 * auth error -40100), against a small JSON-RPC server on loopback port 0, with the limiter on: the
 * client is throttled by that API's budget and classifies errors by that API's table.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { generateInto } from '@exchange-api/codegen';
import { AuthError, ConnectionClosedError, RateLimitError, RpcError } from '@exchange-api/client';

const repoRoot = join(import.meta.dirname, '..', '..');
const spec = join(import.meta.dirname, 'fixtures', 'metered.asyncapi.yaml');

interface Sdk {
  createClient(options: { wsUrl: string; timeoutMs?: number }): {
    core: { limiter: { waiting: number } | null };
    connect(): Promise<void>;
    close(): Promise<void>;
    call(method: string, params: unknown): Promise<unknown>;
  };
}

/** The server: answers `getQuote` with a quote, or with the error `fail` holds; counts the requests it receives. */
interface Server {
  url: string;
  methods: string[];
  fail: { code: number; message: string; data?: string } | null;
  /** Resolves once `n` requests have arrived. */
  received(n: number): Promise<void>;
  close(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server: Server = {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/rpc`,
    methods: [],
    fail: null,
    received: (n) =>
      server.methods.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      return new Promise((r) => wss.close(() => r()));
    },
  };
  wss.on('connection', (ws) =>
    ws.on('message', (raw) => {
      const req = JSON.parse(String(raw)) as { id: number; method: string; params: { symbol: string } };
      server.methods.push(req.method);
      for (const w of waiters.filter((x) => server.methods.length >= x.n)) w.resolve();
      const answer = server.fail ? { error: server.fail } : { result: { symbol: req.params.symbol, price: 12.5 } };
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: req.id, ...answer }));
    }),
  );
  return server;
}

let sdk: Sdk;
let out: string;
let server: Server;

beforeAll(async () => {
  // Inside the repository, so that the SDK's imports of @exchange-api/* resolve to the workspace's sources.
  mkdirSync(join(repoRoot, 'test-output', 'sdk'), { recursive: true });
  out = mkdtempSync(join(repoRoot, 'test-output', 'sdk', 'metered-'));
  await generateInto(spec, out, { check: false });
  sdk = (await import(pathToFileURL(join(out, 'src', 'index.ts')).href)) as Sdk;
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

afterEach(async () => {
  await server?.close();
});

/** Resolves once every callback queued so far has run (a turn of the event loop, not a wait on time). */
const settled = () => new Promise<void>((r) => setImmediate(r));

const quote = (client: ReturnType<Sdk['createClient']>) => client.call('getQuote', { symbol: 'ACME' });

describe("an SDK generated for another API, with that API's limits and error codes", () => {
  it('sends 3 calls in a window, its budget, and holds the others in the limiter', async () => {
    server = await startServer();
    const client = sdk.createClient({ wsUrl: server.url });
    await client.connect();
    const calls = [1, 2, 3, 4, 5].map(() => quote(client));
    await Promise.all(calls.slice(0, 3));
    await server.received(3);
    await settled();
    expect([server.methods.length, client.core.limiter?.waiting]).toEqual([3, 2]);
    // Closing rejects the calls still waiting for budget: they never reached the server.
    const held = calls.slice(3).map((p) => p.catch((err: unknown) => err));
    await client.close();
    for (const err of await Promise.all(held)) expect(err).toBeInstanceOf(ConnectionClosedError);
    expect(server.methods).toEqual(['getQuote', 'getQuote', 'getQuote']);
  });

  it(
    "its -40001 is a RateLimitError with the wait its table's template reads, " + 'and holds the budget that long',
    async () => {
      server = await startServer();
      const client = sdk.createClient({ wsUrl: server.url });
      await client.connect();
      server.fail = { code: -40001, message: 'Too many calls', data: 'Wait 60000 ms' };
      const err = await quote(client).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err).toMatchObject({ code: 'SLOW_DOWN', rpcCode: -40001, retryAfterMs: 60_000 });
      // One point of three is spent: the next call waits for the server's hint, not for the budget.
      const next = quote(client).catch((e: unknown) => e);
      await settled();
      expect([server.methods.length, client.core.limiter?.waiting]).toEqual([1, 1]);
      await client.close();
      expect(await next).toBeInstanceOf(ConnectionClosedError);
    },
  );

  it('its -32000 is a plain RpcError that holds nothing; its -40100 an AuthError', async () => {
    server = await startServer();
    const client = sdk.createClient({ wsUrl: server.url });
    await client.connect();
    server.fail = { code: -32000, message: 'Server busy', data: 'Retry after 60000 ms' };
    const busy = await quote(client).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(RpcError);
    expect(busy).not.toBeInstanceOf(RateLimitError);
    expect(busy).toMatchObject({ code: 'RPC_ERROR', rpcCode: -32000 });
    server.fail = { code: -40100, message: 'Not allowed' };
    const denied = await quote(client).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(AuthError);
    expect(denied).toMatchObject({ code: 'NOT_ALLOWED', rpcCode: -40100 });
    server.fail = null;
    // Not held by the -32000: the third call of the window goes at once.
    expect(await quote(client)).toEqual({ symbol: 'ACME', price: 12.5 });
    expect(server.methods).toHaveLength(3);
    await client.close();
  });

  it("says so in its README: the limiter reads this spec's budgets, the error classes its table", () => {
    const readme = readFileSync(join(out, 'README.md'), 'utf8');
    expect(readme).toContain(
      "- **The client-side rate limiter** reads this spec's budgets (`x-limits`, `x-rate-limit-classes`): calls wait",
    );
    expect(readme).toContain(
      "- **Error classes** follow this spec's error table (`x-errors`): a code of kind `rate-limit`",
    );
    expect(readme).not.toContain('the limiter is off by default');
  });
});
