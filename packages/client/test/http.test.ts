/** Calls over HTTP: public and private (signed headers per request), validation, error bodies. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { recoverLoginSigner, proofFromSources } from '@exchange-api/auth';
import { PayloadValidationError } from '../src/index';
import { rateLimits, useClientHarness } from './harness';

const t = useClientHarness();

describe('HTTP', () => {
  let server: Server;
  let httpUrl: string;
  const seen: { url: string; headers: Record<string, unknown>; body: any }[] = [];
  /** When set, getRateLimits answers a result that breaks its schema. */
  let invalidLimits = false;
  beforeEach(async () => {
    seen.length = 0;
    invalidLimits = false;
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text);
        seen.push({ url: req.url!, headers: req.headers, body });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/v3/public/getRateLimits')
          return res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: null,
              result: invalidLimits ? { ...rateLimits, remaining_matching: 'plenty' } : rateLimits,
            }),
          );
        if (req.url === '/v3/private/get_subaccounts') {
          const proof = proofFromSources(body, req.headers);
          const ok = proof.timestamp && proof.signature && recoverLoginSigner(proof as never) === body.wallet;
          res.statusCode = ok ? 200 : 401;
          return res.end(
            JSON.stringify(
              ok
                ? { jsonrpc: '2.0', id: null, result: { subaccount_ids: [4, 5], wallet: body.wallet } }
                : { jsonrpc: '2.0', id: null, error: { code: 14001, message: 'Invalid signature' } },
            ),
          );
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Method not found' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    httpUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  it('public and private calls, with fresh signed headers per private request', async () => {
    const wallet = Wallet.createRandom();
    t.make({ httpUrl, signer: wallet });
    const r = await t.client.call('public/getRateLimits', {}, { transport: 'http' });
    expect(r.remaining_matching.remainingPoints).toBe(5);
    expect(await t.client.getSubaccounts()).toEqual([4, 5]);
    await new Promise((r) => setTimeout(r, 3));
    expect(await t.client.getSubaccounts()).toEqual([4, 5]);
    const [a, b] = seen.filter((s) => s.url === '/v3/private/get_subaccounts');
    expect(a!.headers['x-servicewallet']).toBe(wallet.address);
    expect(a!.headers['x-servicetimestamp']).not.toBe(b!.headers['x-servicetimestamp']);
  });

  it('a client used only over HTTP validates results: strict rejects, warn reports and delivers', async () => {
    invalidLimits = true;
    t.make({ httpUrl, validate: 'strict' });
    const err = await t.client.call('public/getRateLimits', {}, { transport: 'http' }).catch((e) => e);
    expect(err).toBeInstanceOf(PayloadValidationError);
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(t.reports).toMatchObject([{ target: 'result of public/getRateLimits', channel: null, dropped: true }]);
    expect(t.reports[0]!.failures[0]).toMatchObject({ pointer: '/remaining_matching', rule: 'type object' });
    await t.client.close();
    t.make({ httpUrl, validate: 'warn' });
    const delivered = await t.client.call('public/getRateLimits', {}, { transport: 'http' });
    expect(delivered.remaining_matching).toBe('plenty');
    expect(t.reports).toMatchObject([{ target: 'result of public/getRateLimits', dropped: false }]);
  });

  it('an HTTP error body becomes the error class of its code', async () => {
    t.make({ httpUrl });
    const err = await t.client.call('public/get_all_live_instruments', {}).catch((e) => e);
    expect(err.code).toBe('RPC_METHOD_NOT_FOUND');
    expect(err.rpcCode).toBe(-32601);
  });
});
