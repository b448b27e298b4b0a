/**
 * The conformance console prints what a server said (instrument names, channel names, error text): a
 * hostile server's escape sequences are shown (`\x1b`), never passed to the terminal, where they could
 * erase a FAIL line and draw a PASS over it or retitle the window. On a terminal with NO_COLOR set, the
 * output carries no escape sequence at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { escapeSequences, type Hostile } from '../../../test/conformance/hostile';
import { runBuilt } from './run-cli';

// ESC, BEL, CR and the C1 CSI: what a terminal acts on (the forged text carries the first three).
// eslint-disable-next-line no-control-regex
const RAW = /[\x1b\x07\r\x9b]/;

let server: Hostile;
beforeAll(async () => {
  server = await escapeSequences();
});
afterAll(() => server.close());

/** The checks that print the server's instrument name (in the first line and in a reason) and its error text. */
const args = () => ['conformance', '--ws', server.wsUrl, '--http', server.httpUrl, '--only', 'subscriptions.subscribe'];

describe('the conformance console against a server whose text carries escape sequences', () => {
  it('shows them as text (\\x1b, \\r, \\x07) and passes none of them to the terminal', async () => {
    const r = await runBuilt(args());
    expect(r.stdout).not.toMatch(RAW);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stdout.split('\n')[0]).toContain('instrument ETH-PERP\\x1b[2K\\r[ 1/1] PASS');
    expect(r.stdout).toMatch(/^\[1\/1\] FAIL +subscriptions\.subscribe .*ETH-PERP\\x1b\[2K\\r\[ 1\/1\] PASS/m);
    expect(r.stdout).toContain('forged\\x1b]0;retitled\\x07');
    expect(r.status).toBe(1);
  }, 300_000);

  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  // `script` (util-linux) gives the command a terminal, where colour libraries would turn colour on.
  it.skipIf(!hasScript)(
    'on a terminal with NO_COLOR set: no escape sequence at all, ours or the server’s',
    async () => {
      const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
      const r = await runBuilt(args(), {
        env: { ...process.env, NO_COLOR: '1' },
        command: (node) => ['script', '-q', '-e', '-c', node.map(quote).join(' '), '/dev/null'],
      });
      // The terminal ends lines with CR LF: those CRs are its own.
      const text = r.stdout.replace(/\r\n/g, '\n');
      expect(text).toContain('FAIL         subscriptions.subscribe');
      expect(text).not.toMatch(RAW);
      expect(r.status).toBe(1);
    },
    300_000,
  );
});
