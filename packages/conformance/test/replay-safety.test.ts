/**
 * Replay files and the replay folder, as an attacker would try them (issue 32, items 2, 8, 9, 10): a
 * replay of order flow is refused without --allow-order-flow before anything is sent; replay files are
 * never written through a symbolic link nor over a file; a replay folder that cannot be written is said
 * before the run; a spec (or replay) path that is a FIFO is refused at once rather than hanging the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { modelFromSpec } from '@exchange-api/codegen';
import { runCli } from '../src/cli';
import { replayPlace, writeReplay, type ReplayFile } from '../src/generate/replay-file';
import { readRegularFile } from '../src/read-regular';

const SPEC = resolve(__dirname, '../../../spec/asyncapi.yaml');

/** A WebSocket server on loopback that counts the connections and frames it gets (it answers nothing). */
let wss: WebSocketServer;
let url = '';
const seen = { connections: 0, frames: [] as string[] };
beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) => {
    seen.connections++;
    ws.on('message', (d) => seen.frames.push(String(d)));
  });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v3/ws`;
});
afterAll(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((r) => wss.close(() => r()));
});

/**
 * The spec is read as the exchange-api command reads it: through the generator's loader and model, once
 * per file here (the command reads it once per run; building our spec's model costs seconds each time).
 */
const models = new Map<string, ReturnType<typeof modelFromSpec>>();
const loadSpec = (file: string) => models.get(file) ?? models.set(file, modelFromSpec(file)).get(file)!;

async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const code = await runCli(['--ws', url, ...argv], io, {}, loadSpec);
  return { code, out, err };
}

const frame = (id: string, method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** A replay file as a run writes it, of one call (or of a sequence's frames). */
function replayOf(over: Partial<ReplayFile>): ReplayFile {
  const sent = frame('g-1', 'private/cancel', { subaccount_id: 1, instrument_name: 'ETH-PERP', order_id: 'x' });
  return {
    format: 'exchange-api-conformance-replay',
    formatVersion: 1,
    seed: 1,
    spec: { file: SPEC, title: 't', version: 'v' },
    target: { ws: 'ws://127.0.0.1:9/v3/ws', http: null },
    kind: 'method',
    method: 'private/cancel',
    transport: 'ws',
    auth: 'none',
    expect: 'valid',
    why: 'required members only',
    call: {
      params: '{}',
      sent,
      received: [],
      verdict: { status: 'fail', ruleId: 'envelope', rule: 'r', expected: 'e', got: 'g' },
    },
    shrinkSteps: 0,
    recordedAt: new Date(0).toISOString(),
    ...over,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'replay-safety-'));
function fileOf(name: string, r: ReplayFile): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(r));
  return path;
}

describe('--replay of order flow needs --allow-order-flow (item 2)', () => {
  it(
    'an unsigned cancel is refused before any connection: exit 2, one line naming ' + 'the file and the method',
    async () => {
      const file = fileOf('cancel.json', replayOf({}));
      const before = seen.connections;
      const r = await cli('--replay', file);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toContain(file);
      expect(r.err[0]).toMatch(/order flow again \(private\/cancel\).*--allow-order-flow/);
      expect(seen.connections).toBe(before);
    },
  );

  it('a sequence holding an unsigned cancel-all among other frames is refused, naming it', async () => {
    const frames = [
      { sent: frame('s-1', 'public/get_time', {}), received: [] },
      { sent: frame('s-2', 'private/cancel_all', { subaccount_id: 1 }), received: [] },
    ];
    const r0 = replayOf({
      kind: 'sequence',
      method: 'order-life-cycle',
      sequence: { conn: 'fresh', frames, judge: { kind: 'served' }, wallet: null, subaccounts: [] },
    });
    const before = seen.connections;
    const r = await cli('--replay', fileOf('sequence.json', r0));
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/order flow again \(private\/cancel_all\)/);
    expect(seen.connections).toBe(before);
  });

  it(
    'a replay naming a spec that marks nothing as order flow is still refused ' + '(this exchange tables mark it)',
    async () => {
      const bland = join(dir, 'bland.yaml');
      writeFileSync(bland, 'asyncapi: 3.0.0\ninfo: { title: bland, version: "1" }\noperations: {}\n');
      const file = fileOf(
        'bland.json',
        replayOf({
          kind: 'sequence',
          method: 'x',
          spec: { file: bland, title: 'b', version: '1' },
          sequence: {
            conn: 'fresh',
            frames: [{ sent: frame('s-1', 'private/cancel_all', {}), received: [] }],
            judge: { kind: 'served' },
            wallet: null,
            subaccounts: [],
          },
        }),
      );
      const r = await cli('--replay', file);
      expect(r.code).toBe(2);
      expect(r.err.join('\n')).toMatch(/private\/cancel_all/);
    },
  );
});

describe('replay files never go through a symbolic link nor over a file (item 8)', () => {
  it('a link planted where a replay file goes is refused, its target untouched; a file there is kept', () => {
    const out = mkdtempSync(join(tmpdir(), 'replay-out-'));
    const victim = join(mkdtempSync(join(tmpdir(), 'victim-')), 'bashrc');
    writeFileSync(victim, 'mine\n');
    const r = replayOf({ method: 'private/get_orders' });
    symlinkSync(victim, join(out, '001-private_get_orders-ws.json'));
    expect(() => writeReplay(replayPlace(out), r, 1)).toThrow(/symbolic link.*001-private_get_orders-ws\.json ->/);
    expect(readFileSync(victim, 'utf8')).toBe('mine\n');
    // A dangling link is not followed to create its target either.
    const dangling = join(dir, 'created-through-link');
    symlinkSync(dangling, join(out, '002-private_get_orders-ws.json'));
    expect(() => writeReplay(replayPlace(out), r, 2)).toThrow(/symbolic link/);
    expect(existsSync(dangling)).toBe(false);
    // A file already there (an earlier run's) is kept: the next free number is taken.
    writeFileSync(join(out, '003-private_get_orders-ws.json'), 'earlier\n');
    expect(writeReplay(replayPlace(out), r, 3)).toBe(join(out, '004-private_get_orders-ws.json'));
    expect(readFileSync(join(out, '003-private_get_orders-ws.json'), 'utf8')).toBe('earlier\n');
  });

  it('the default folder ./conformance-replays as a link someone put there is refused', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'replay-cwd-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'elsewhere-'));
    symlinkSync(elsewhere, join(cwd, 'conformance-replays'));
    const place = { ...replayPlace(undefined), root: cwd };
    expect(() => writeReplay(place, replayOf({}), 1)).toThrow(/conformance-replays -> /);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('--replay-dir is checked before the run (item 9)', () => {
  it('a folder that cannot be created (/proc/nope): exit 2 at once, one line naming it, no connection', async () => {
    const before = seen.connections;
    const r = await cli('--generate', '--replay-dir', '/proc/nope');
    expect(r.code).toBe(2);
    expect(r.err).toEqual([expect.stringMatching(/replay files cannot be written to \/proc\/nope: .*ENOENT/)]);
    expect(seen.connections).toBe(before);
  });

  it('a file given as the folder: exit 2 before the run, naming it', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const before = seen.connections;
    const r = await cli('--generate', '--replay-dir', file);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      expect.stringMatching(/replay files cannot be written to .*a-file: .*is a file, not a folder/),
    ]);
    expect(seen.connections).toBe(before);
  });

  it('a folder that can be written is left as it was found (made for the check, then removed)', async () => {
    const fresh = join(dir, 'fresh', 'replays');
    mkdirSync(join(dir, 'fresh'));
    // The run itself then ends at once (nothing listens on port 1); the folder check came first and left nothing.
    const io = { out: () => undefined, err: () => undefined };
    const argv = ['--ws', 'ws://127.0.0.1:1/v3/ws', '--generate', '--replay-dir', fresh];
    const code = await runCli(argv, io, {}, loadSpec);
    expect(code).toBe(2);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('a spec or replay path that is not a regular file is refused, never read (item 10)', () => {
  const fifo = join(dir, 'fifo');
  beforeAll(() => execFileSync('mkfifo', [fifo]));

  it('a replay file naming a FIFO as its spec: exit 2 at once, one line naming it', async () => {
    const file = fileOf(
      'fifo-spec.json',
      replayOf({ method: 'public/get_time', spec: { file: fifo, title: 't', version: 'v' } }),
    );
    const r = await cli('--replay', file);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      expect.stringMatching(/the spec .*fifo is a FIFO \(named pipe\), not a regular file: refused/),
    ]);
  });

  it('a FIFO given as the replay file or as --spec: refused the same way', async () => {
    expect((await cli('--replay', fifo)).err).toEqual([expect.stringMatching(/the replay file .*fifo is a FIFO/)]);
    const r = await cli('--generate', '--spec', fifo, '--replay-dir', join(dir, 'r'));
    expect(r.code).toBe(2);
    expect(r.err).toEqual([expect.stringMatching(/the spec .*fifo is a FIFO/)]);
  });

  it('a file over the bound is refused by its size, not read', () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, 'x'.repeat(2000));
    expect(() => readRegularFile(big, 'the spec', 1000)).toThrow(/big\.yaml is 2000 bytes, over the 1000 this reads/);
    expect(readRegularFile(big, 'the spec', 2000)).toHaveLength(2000);
    expect(() => readRegularFile(dir, 'the spec')).toThrow(/is a folder, not a regular file/);
  });
});
