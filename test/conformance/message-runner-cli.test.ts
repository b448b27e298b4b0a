/**
 * The message runner's command line beyond one pass or failure: `--generate` writes a replay file per
 * failure (shrunk), `--replay` sends it again (STILL FAILING against the broken server, FIXED against the
 * right one), every report format is written, a run that checked nothing exits 2, and what does not
 * apply to a message spec (a JSON-RPC spec without --generate, --http) is refused by name.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, conformance, folder, removeFolders, specFile } from './message-cli';
import { serveSpec } from './message-servers';
import { runMain } from '../support/run-main';

afterAll(removeFolders);

describe('exchange-api conformance --spec, as the command runs it', () => {
  it('Postman echo: its first line, the console report, exit 0', async () => {
    const server = await serveSpec('postman-echo');
    try {
      const bounds = ['--sample-window', '300'];
      const r = await runMain(['conformance', '--spec', specFile('postman-echo'), '--ws', server.url, ...bounds]);
      expect(r.stdout.split('\n')[0]).toBe(
        `exchange-api conformance: ${server.url} — 2 checks; spec ${specFile('postman-echo')}` +
          ' (its own messages: every channel address is a URL path)',
      );
      expect(r.stdout).toMatch(/OK: 2 passed, 0 failed, 0 skipped, 0 inconclusive/);
      expect([r.status, r.stderr]).toEqual([0, '']);
    } finally {
      await server.close();
    }
  });
});

describe('conformance --spec --generate and --replay', () => {
  it(
    'a reply without its reqid: replay files written; ' + 'replayed STILL FAILING, then FIXED on the right server',
    async () => {
      const broken = await serveSpec('kraken-message-filter', 'uncorrelated');
      const right = await serveSpec('kraken-message-filter');
      try {
        const replays = folder();
        const { code, out, report, dir } = await check('kraken-message-filter', broken.url, [
          '--check-timeout',
          '1000',
          '--generate',
          '--seed',
          '9',
          '--replay-dir',
          replays,
          '--report',
          'console',
          '--report',
          `html:${join(folder(), 'r.html')}`,
        ]);
        expect(code).toBe(1);
        expect(out.split('\n')[0]).toMatch(
          /^exchange-api conformance --generate: ws:.* — seed 9 \(--seed 9 reproduces/,
        );
        expect(report.generated?.seed).toBe(9);
        expect(report.generated?.cases).toBeGreaterThan(10);
        const files = readdirSync(replays);
        expect(files.length).toBe(report.generated!.replays.length);
        const ping = files.find((f) => f.includes('receivePing'))!;
        const file = JSON.parse(readFileSync(join(replays, ping), 'utf8')) as {
          kind: string;
          call: { verdict: object };
        };
        expect(file).toMatchObject({ kind: 'message', call: { verdict: { ruleId: 'messages.reply-correlated' } } });
        expect(existsSync(dir)).toBe(true);
        const again = ['--spec', specFile('kraken-message-filter'), '--replay'];
        const still = await conformance([...again, join(replays, ping), '--ws', broken.url, '--check-timeout', '1000']);
        expect([still.code, still.out.split('\n')[0]]).toEqual([
          1,
          expect.stringMatching(/^STILL FAILING: receivePing/),
        ]);
        const fixed = await conformance([...again, join(replays, ping), '--ws', right.url]);
        expect([fixed.code, fixed.out.split('\n')[0]]).toEqual([0, expect.stringMatching(/^FIXED: receivePing/)]);
      } finally {
        await Promise.all([broken.close(), right.close()]);
      }
    },
  );
});

describe('conformance --spec: nothing checked, and what does not apply', () => {
  it('a server that says nothing to a push-only spec: exit 2, "nothing was checked"', async () => {
    const quiet = await serveSpec('postman-echo', 'silent');
    try {
      const { code, err, report } = await check('gemini', quiet.url);
      expect(report.summary).toMatchObject({ passed: 0, failed: 0 });
      expect(code).toBe(2);
      expect(err).toContain('nothing was checked');
    } finally {
      await quiet.close();
    }
  });

  it('an unreachable server: exit 2, said on one line', async () => {
    const r = await conformance(['--spec', specFile('postman-echo'), '--ws', 'ws://127.0.0.1:9/raw']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^exchange-api conformance: server unreachable: ws:\/\/127\.0\.0\.1:9\/raw\//);
  });

  it(
    '--http or an --only of no check with a message spec, and ' +
      '--spec of a JSON-RPC spec without --generate: refused by name',
    async () => {
      const http = await conformance(['--spec', specFile('gemini'), '--ws', 'ws://127.0.0.1:9', '--http', 'http://x']);
      expect([http.code, http.err]).toEqual([2, expect.stringContaining('--http applies to the JSON-RPC interface')]);
      const only = await conformance(['--spec', specFile('gemini'), '--ws', 'ws://127.0.0.1:9', '--only', 'login']);
      expect([only.code, only.err]).toEqual([
        2,
        expect.stringContaining('--only "login" matches no check of this spec'),
      ]);
      const ours = fileURLToPath(new URL('../../spec/asyncapi.yaml', import.meta.url));
      const rpc = await conformance(['--spec', ours, '--ws', 'ws://127.0.0.1:9/v3/ws']);
      expect([rpc.code, rpc.err]).toEqual([2, expect.stringContaining('--spec applies to --generate and --replay')]);
    },
    120_000,
  );
});
