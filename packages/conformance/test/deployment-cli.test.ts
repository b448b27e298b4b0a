/**
 * `--ws URL1,URL2 --http URL1,URL2`: the endpoints of one deployment. One URL parses exactly as before;
 * lists of the same length (or one --http for all) give the other endpoints; a malformed list is one
 * usage line and exit 2, before anything connects. The console report names the endpoints.
 */
import { describe, expect, it } from 'vitest';
import { parseCli, runCli } from '../src/cli';
import { consoleReport } from '../src/reporters/console';
import { resolveOptions } from '../src/options';
import { registry } from '../src/checks';
import type { Report } from '../src/model';

const A = 'ws://a.example:8080/v3/ws';
const B = 'ws://b.example:8080/v3/ws';
const HA = 'http://a.example:8080';
const HB = 'http://b.example:8080';

async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, {});
  return { code, out, err };
}

describe('several endpoints on the command line', () => {
  it('one URL: the options are what they were (no otherEndpoints)', () => {
    const o = parseCli(['--ws', A, '--http', HA], {});
    expect(o).toMatchObject({ ws: A, http: HA });
    expect(o).not.toHaveProperty('otherEndpoints');
    expect(parseCli(['--ws', A], {})).not.toHaveProperty('otherEndpoints');
  });

  it('lists of the same length pair up in order; one --http serves every endpoint; none is fine too', () => {
    expect(parseCli(['--ws', `${A},${B}`, '--http', `${HA},${HB}`], {})).toMatchObject({
      ws: A,
      http: HA,
      otherEndpoints: [{ ws: B, http: HB }],
    });
    expect(parseCli(['--ws', `${A}, ${B}`, '--http', HA], {})).toMatchObject({
      ws: A,
      http: HA,
      otherEndpoints: [{ ws: B, http: HA }],
    });
    expect(parseCli(['--ws', `${A},${B}`], {})).toMatchObject({
      ws: A,
      http: null,
      otherEndpoints: [{ ws: B, http: null }],
    });
  });

  it('malformed lists: one line naming the flag and what it takes, exit 2, nothing connects', async () => {
    const cases: [string[], RegExp][] = [
      [['--ws', `${A},`], /^--ws takes one URL or a comma-separated list of URLs.*item 2 is empty/],
      [['--ws', `,${A}`], /^--ws takes one URL .*item 1 is empty/],
      [['--ws', `${A},,${B}`], /item 2 is empty/],
      [['--ws', `${A},${B}`, '--http', `${HA},`], /^--http takes one URL .*item 2 is empty/],
      [
        ['--ws', `${A},${B}`, '--http', `${HA},${HB},http://c.example`],
        /^--http takes one URL or as many as --ws, in the same order \(got 3 --http URLs for 2 --ws URLs\)/,
      ],
      [['--ws', A, '--http', `${HA},${HB}`], /got 2 --http URLs for 1 --ws URL\)/],
      [['--ws', `${A},${A}`], /^--ws names ws:\/\/a\.example:8080\/v3\/ws twice/],
      [['--ws', `${A},not a url`], /^--ws "not a url" is not a URL/],
      [['--ws', `${A},http://b.example/v3/ws`], /^--ws must be a ws:\/\/ or wss:\/\/ URL/],
      [['--ws', `${A},${B}`, '--http', `${HA},ws://b.example`], /^--http must be an http:\/\/ or https:\/\/ URL/],
      [['--ws', `${A},${B}`, '--generate'], /^several --ws URLs apply to the checks, not to --generate/],
      [['--ws', `${A},${B}`, '--replay', 'f.json'], /^several --ws URLs apply to the checks, not to --replay/],
    ];
    for (const [argv, want] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toHaveLength(1);
      expect(r.err[0]!.replace(/^exchange-api conformance: /, ''), argv.join(' ')).toMatch(want);
      expect(r.out).toEqual([]);
    }
  });

  it('the library: otherEndpoints resolve after the first; one endpoint lists itself alone', () => {
    expect(resolveOptions({ ws: A, http: HA, otherEndpoints: [{ ws: B }] }).endpoints).toEqual([
      { ws: A, http: HA },
      { ws: B, http: null },
    ]);
    expect(resolveOptions({ ws: A }).endpoints).toEqual([{ ws: A, http: null }]);
  });

  it('the deployment checks are an area of their own, each needing two or more endpoints', () => {
    const deployment = registry.filter((c) => c.id.startsWith('deployment.'));
    expect(deployment.map((c) => c.id)).toEqual([
      'deployment.rate-limits-agree',
      'deployment.nonce-once',
      'deployment.push-across',
      'deployment.wallet-budget',
      'deployment.connection-limit',
    ]);
    for (const c of deployment) expect(c.needs).toContain('endpoints');
    expect(parseCli(['--ws', `${A},${B}`, '--only', 'deployment'], {})).toMatchObject({ only: ['deployment'] });
  });

  it('the console report names every endpoint of a deployment, and one server as before', () => {
    const base: Report = {
      format: 'exchange-api-conformance-report',
      formatVersion: 1,
      spec: { title: 'API', version: '3' },
      target: { ws: A, http: HA },
      startedAt: new Date(0).toISOString(),
      durationMs: 10,
      exitCode: 0,
      summary: { total: 0, passed: 0, failed: 0, skipped: 0, inconclusive: 0 },
      areas: [],
      assumptions: [],
      checks: [],
    };
    expect(consoleReport(base).split('\n')[0]).toBe(`Conformance of ${A} and ${HA} to API 3`);
    const two = {
      ...base,
      target: {
        ...base.target,
        endpoints: [
          { ws: A, http: HA },
          { ws: B, http: null },
        ],
      },
    };
    expect(consoleReport(two).split('\n').slice(0, 3)).toEqual([
      'Conformance of one deployment of 2 endpoints to API 3:',
      `  A: ${A} and ${HA}`,
      `  B: ${B}`,
    ]);
  });
});
