/**
 * An AsyncAPI 2.6.0 document (Gemini, from asyncapi/spec tag v2.6.0; fixtures/public/README.md),
 * converted in process: `generate --out` writes its SDK, `exchange-api mock` serves it, and the client
 * streams its market data from the mock with strict validation (issue 33, item 4).
 */
import { afterAll, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateInto, lenientModelFromSpec } from '@exchange-api/codegen';
import { startMock } from '@exchange-api/mock';

const repoRoot = join(import.meta.dirname, '..', '..');
const spec = join(import.meta.dirname, 'fixtures', 'public', 'gemini-2.6.asyncapi.yaml');
const OP = '/v1/marketdata/{symbol}.subscribe';

interface Client {
  on(event: 'error' | 'validation', fn: (e: unknown) => void): () => void;
  stream(op: string, o?: object): AsyncIterableIterator<unknown>;
  close(): Promise<void>;
}

mkdirSync(join(repoRoot, 'test-output', 'sdk'), { recursive: true });
const out = mkdtempSync(join(repoRoot, 'test-output', 'sdk', 'asyncapi2-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('generates an SDK from the 2.x document, whose client streams from the mock of it, all valid', async () => {
  await generateInto(spec, out, { check: false });
  const sdk = (await import(pathToFileURL(join(out, 'src', 'index.ts')).href)) as {
    createClient(o: { url: string; validate: 'strict'; timeoutMs: number }): Client;
  };
  const { model } = await lenientModelFromSpec(spec);
  const mock = await startMock({ model, seed: 2, pushIntervalMs: 50 });
  const client = sdk.createClient({ url: mock.url, validate: 'strict', timeoutMs: 5_000 });
  try {
    const events: unknown[] = [];
    client.on('error', (e) => events.push(e));
    client.on('validation', (r) => events.push(r));
    const got: unknown[] = [];
    for await (const m of client.stream(OP, { params: { symbol: 'btcusd' }, query: { heartbeat: true } })) {
      got.push(m);
      if (got.length === 3) break;
    }
    expect(got.map((m) => (m as { type: string }).type).every((t) => t === 'update' || t === 'heartbeat')).toBe(true);
    expect(events.map(String)).toEqual([]);
  } finally {
    await client.close();
    await mock.close();
  }
}, 120_000);
