/**
 * HTTP as strict as the document: Content-Type, the envelope's method, paths, body limits, pre-authentication budget.
 */
import { describe, expect, it } from 'vitest';
import { errorByName } from '@exchange-api/types';
import { loginHeaders, signLogin } from '@exchange-api/auth';
import { Client, newWallet, post, start } from './helpers';
import { rawHttp, within } from './peers';
import { SandboxOptionsError, resolveOptions } from '../src/index';

const code = (name: Parameters<typeof errorByName>[0]) => errorByName(name).code;

/** A request to the sandbox's HTTP side with exactly these headers and body. */
async function send(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, json: await res.json() };
}

describe('HTTP at the door', () => {
  it('requires Content-Type application/json (charset allowed), refusing others with -32600', async () => {
    const sb = await start();
    const url = `${sb.httpUrl}/v3/public/getRateLimits`;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      const r = await send(url, { 'content-type': type }, '{}');
      expect([r.status, r.json.error.code], type).toEqual([400, code('RPC_INVALID_REQUEST')]);
      expect(r.json.error.data).toContain('Content-Type must be application/json');
    }
    const none = await rawHttp(
      sb.httpUrl,
      `POST /v3/public/getRateLimits HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`,
    );
    expect(await none.response).toMatch(/^HTTP\/1\.1 400 [\s\S]*Content-Type must be application\/json \(got null\)/);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON'])
      expect((await send(url, { 'content-type': type }, '{}')).status, type).toBe(200);
  });

  it('refuses a JSON-RPC envelope that names another method than the path', async () => {
    const sb = await start();
    const r = await post(sb, '/v3/public/getRateLimits', { jsonrpc: '2.0', id: 5, method: 'order', params: {} });
    expect([r.status, r.json.id, r.json.error.code]).toEqual([400, 5, code('RPC_INVALID_REQUEST')]);
    expect(r.json.error.data).toBe('/method: "order" is not the method of this path (public/getRateLimits)');
    const same = await post(sb, '/v3/public/getRateLimits', {
      jsonrpc: '2.0',
      id: 6,
      method: 'public/getRateLimits',
      params: {},
    });
    expect([same.status, same.json.id]).toEqual([200, 6]);
    const bad = await post(sb, '/v3/public/getRateLimits', { jsonrpc: '1.0', id: 7, params: {} });
    expect([bad.status, bad.json.error.code]).toEqual([400, code('RPC_INVALID_REQUEST')]);
  });

  it('names a path with an empty segment instead of reading it as some other path', async () => {
    const sb = await start();
    const r = await rawHttp(
      sb.httpUrl,
      `POST //v3/public/getRateLimits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    );
    const text = await r.response;
    expect(text).toMatch(/^HTTP\/1\.1 404 /);
    expect(text).toContain('path \\"//v3/public/getRateLimits\\" has an empty segment (//)');
  });

  it('refuses a body over the limit without reading it to the end, and closes', async () => {
    const sb = await start({ limits: { max_frame_bytes: { maxBytes: 2048 } } });
    const head = (extra: string) =>
      `POST /v3/public/getRateLimits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}\r\n`;
    // A declared length over the limit: answered at once, although the body never comes.
    const declared = await rawHttp(sb.httpUrl, head('Content-Length: 100000000\r\n'), '{"a":"');
    const text = await within(declared.response, 5000);
    expect(text).toMatch(
      /^HTTP\/1\.1 400 [\s\S]*"code":-32600[\s\S]*body of 100000000 bytes \(Content-Length\) is over the 2048-byte limit; the rest was not read/,
    );
    expect(await within(declared.closed, 5000)).not.toBe('timeout');
    // A chunked body that passes the limit and never ends: answered once it passes, then closed.
    const chunk = 'x'.repeat(1000);
    const chunked = await rawHttp(
      sb.httpUrl,
      head('Transfer-Encoding: chunked\r\n'),
      `${(1000).toString(16)}\r\n${chunk}\r\n`.repeat(3),
    );
    expect(await within(chunked.response, 5000)).toMatch(/^HTTP\/1\.1 400 [\s\S]*over the 2048-byte limit/);
    expect(await within(chunked.closed, 5000)).not.toBe('timeout');
    // A client that sends a large body at once still gets the answer.
    const big = await fetch(`${sb.httpUrl}/v3/public/getRateLimits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 'y'.repeat(1_000_000) }),
    }).then(
      async (res) => [res.status, (await res.json()).error.code],
      (err: Error) => ['no answer', String(err.cause ?? err)],
    );
    expect(big).toEqual([400, code('RPC_INVALID_REQUEST')]);
    expect((await post(sb, '/v3/public/getRateLimits', {})).status).toBe(200);
  });
});

describe('HTTP login', () => {
  it('a request whose login fails spends the per-IP budget, like any request before login', async () => {
    const sb = await start({ limits: { public: { points: 10, windowMs: 60_000 } } });
    const w = newWallet();
    const proof = await signLogin(w);
    const forged = loginHeaders({ ...proof, signature: await newWallet().signMessage(proof.timestamp) });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await post(sb, '/v3/private/get_subaccounts', { wallet: w.address }, forged)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    // Without the login values at all: the same budget, now spent.
    expect((await post(sb, '/v3/private/get_subaccounts', { wallet: w.address })).status).toBe(429);
    // A good login is keyed by its wallet and still served.
    expect(
      (await post(sb, '/v3/private/get_subaccounts', { wallet: w.address }, loginHeaders(await signLogin(w)))).status,
    ).toBe(200);
  });

  it(
    'by default any wallet that logs in gets an account: fresh wallets from one ' +
      'IP are each served on their own budget',
    async () => {
      const sb = await start({ limits: { public: { points: 2, windowMs: 60_000 } } });
      for (let i = 0; i < 6; i++) {
        const w = newWallet();
        const r = await post(
          sb,
          '/v3/private/get_subaccounts',
          { wallet: w.address },
          loginHeaders(await signLogin(w)),
        );
        expect(r.status).toBe(200);
      }
    },
  );

  it(
    'knownWalletsOnly: only configured wallets (and their session keys) log in; ' +
      'others are refused on both transports',
    async () => {
      const known = newWallet();
      const keyed = newWallet();
      const key = newWallet();
      const sb = await start({
        knownWalletsOnly: true,
        wallets: [{ address: known.address, subaccounts: [7] }],
        sessionKeys: [{ address: key.address, wallet: keyed.address }],
      });
      const c = await Client.connect(sb.wsUrl);
      expect(await c.login(known)).toEqual([7]);
      expect((await c.login(key, keyed.address)).length).toBe(2);
      const stranger = newWallet();
      const refused = await c.request('public/login', await signLogin(stranger));
      expect(refused.error).toMatchObject({
        code: code('AUTH_ACCESS_DENIED'),
        data: expect.stringContaining('knownWalletsOnly'),
      });
      const http = await post(
        sb,
        '/v3/private/get_subaccounts',
        { wallet: stranger.address },
        loginHeaders(await signLogin(stranger)),
      );
      expect([http.status, http.json.error.code]).toEqual([403, code('AUTH_ACCESS_DENIED')]);
      expect(() => resolveOptions({ knownWalletsOnly: 'yes' })).toThrow(SandboxOptionsError);
      expect(resolveOptions({}).knownWalletsOnly).toBe(false);
    },
  );
});
