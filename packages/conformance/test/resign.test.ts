/**
 * A retry after a rate-limit answer (the generated runner's and the hand-written checks') sends a signed
 * request signed anew: a server that
 * spent the nonce of the request it refused for its rate (the document does not say it may not) answers
 * the same frame again as a replay, and the run would report a failure of its own making.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { call, type CallHost } from '../src/calls';
import { WsConn } from '../src/connection';
import { Session } from '../src/generate/session';
import type { GenMethod, GenSpec } from '../src/generate/spec';
import { Transcript } from '../src/transcript';

let wss: WebSocketServer;
let url: string;
/** The nonces the server saw, in order: the first request is refused for its rate, its nonce spent. */
const seen: string[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) =>
    ws.on('message', (data) => {
      const { id, params } = JSON.parse(String(data)) as { id: string; params: { nonce: string } };
      const spent = seen.includes(params.nonce);
      seen.push(params.nonce);
      const answer =
        seen.length === 1
          ? { error: { code: -32000, message: 'Rate limit exceeded', data: 'Retry after 5 ms' } }
          : spent
            ? { error: { code: 14004, message: 'Invalid signature', data: `nonce ${params.nonce} already used` } }
            : { result: { ok: true } };
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, ...answer }));
    }),
  );
  await new Promise<void>((r) => wss.once('listening', () => r()));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
});
beforeEach(() => {
  seen.length = 0;
});
afterAll(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((r) => wss.close(() => r()));
});

const method: GenMethod = {
  id: 'order',
  name: 'private/order',
  transports: ['ws'],
  httpPath: null,
  auth: 'none',
  orderFlow: true,
  params: null,
  result: null,
  assumedParams: false,
  assumedResult: false,
  rateLimitClass: null,
};
const spec: GenSpec = {
  file: 'inline',
  title: 'nonces spent on refusal',
  version: '1',
  doc: {},
  methods: [method],
  channels: [],
  errors: [{ code: -32000, name: 'RATE_LIMITED', kind: 'rate-limit' }],
  ownErrorTable: true,
  limits: [],
  classBudgets: {},
  defaultClass: null,
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
};

describe('a retry after a rate-limit answer', () => {
  it('sends the signed request signed anew, and is answered', async () => {
    const session = new Session(spec, url, null, null, new Transcript(Date.now()));
    let signed = 0;
    const sign = async () => JSON.stringify({ nonce: `n${++signed}` });
    try {
      const ex = await session.callOn(await session.conn('anon'), method, await sign(), false, sign);
      expect(ex.retries).toBe(1);
      expect(seen).toEqual(['n1', 'n2']);
      expect(ex.outcome).toMatchObject({ kind: 'response', json: { result: { ok: true } } });
    } finally {
      await session.close();
    }
  });

  it("in a hand-written check, sends the action's params signed anew, and is answered", async () => {
    const transcript = new Transcript(Date.now());
    const host = {
      run: {},
      transcript,
      signal: new AbortController().signal,
      throwIfStopped: () => {},
      sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
      note: () => {},
      abort: (f: { message: string }) => {
        throw new Error(f.message);
      },
      skip: (why: string) => {
        throw new Error(why);
      },
      inconclusive: (why: string) => {
        throw new Error(why);
      },
    } as unknown as CallHost;
    const conn = await WsConn.open(url, transcript, 'resign');
    let signed = 0;
    const sign = async () => ({ nonce: `h${++signed}` });
    try {
      const answer = await call(host, conn, 'private/order', await sign(), { pace: false, again: sign });
      expect(seen).toEqual(['h1', 'h2']);
      expect(answer.result).toEqual({ ok: true });
    } finally {
      await conn.close();
    }
  });
});
