/**
 * `exchange-api sandbox --preset derive-local [--port n] [--ws-port n]`: the listening line names the
 * WebSocket's own port at /ws and the HTTP port; HTTP answers at the root; the refusals are one line.
 * Ports 0 here: the preset's 8080 and 3000 are its defaults only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runMain } from '../../../test/support/run-main';
import { built } from './run-cli';
import { groupGone, killLeftGroups, spawnGroup } from '../../sandbox/test/processes';

// Every process group a test started is killed after it (the helper module is shared by the files of a
// worker, so it registers no hook of its own).
afterEach(killLeftGroups);

describe('sandbox --preset derive-local', () => {
  it.each([
    [['sandbox', '--preset', 'nope'], /^exchange-api sandbox: preset: unknown preset "nope" \(known: derive-local\)$/],
    [['sandbox', '--ws-port', 'x'], /^exchange-api sandbox: --ws-port must be an integer from 0 to 65535/],
    [['sandbox', '--port', '4000', '--ws-port', '4000'], /^exchange-api sandbox: wsPort: must differ from port/],
  ])('%j: one line, exit 2', async (args, message) => {
    const r = await runMain(args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  });

  it('listens on two ports and answers /public/<name> at the root; SIGTERM stops it', async () => {
    const run = spawnGroup([...built, 'sandbox', '--preset', 'derive-local', '--port', '0', '--ws-port', '0']);
    const line = await run.firstLine;
    const m = /^sandbox listening ws:\/\/127\.0\.0\.1:([0-9]+)\/ws http:\/\/127\.0\.0\.1:([0-9]+)$/.exec(line);
    expect(m, line).not.toBeNull();
    expect(m![1]).not.toBe(m![2]);
    const res = await fetch(`http://127.0.0.1:${m![2]}/public/get_time`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await res.json()) as { result: unknown }).result).toBeTypeOf('number');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(await groupGone(run.pgid, 10_000)).toBe(true);
  }, 60_000);
});
