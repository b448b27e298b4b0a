/**
 * An independent peer for the runner (issue 33, item 5): `exchange-api conformance --spec FILE --ws URL`
 * against @scalar/mock-server serving the same specs reports no violation the peer did not commit. Every
 * failing finding is one of Scalar's known departures (docs/mock.md, "An independent peer"; the client
 * meets the same two in test/sdk/scalar-peer.test.ts), named by rule id and operation, and each of them is
 * reported: the ticker's subscribe answered with a `subscribe` message, and Postman echo's string reply
 * sent bare (no JSON). What the peer does right passes; where it serves no WebSocket route, or pushes
 * nothing, the run says so (exit 2) and reports no violation.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding, Report } from '@exchange-api/conformance';
import { serveScalar, type ScalarPeer } from '../support/scalar';
import { conformance, folder, removeFolders } from './message-cli';

const fixtures = join(import.meta.dirname, '..', 'sdk', 'fixtures');
const spec = (name: string) =>
  name === 'ticker' ? join(fixtures, 'ticker.asyncapi.yaml') : join(fixtures, 'public', `${name}.asyncapi.yaml`);

afterAll(removeFolders);
const peers: ScalarPeer[] = [];
afterEach(async () => {
  for (const p of peers.splice(0)) await p.close();
});

/** The runner against Scalar's mock of a spec: exit code, output and the JSON report (null when none). */
async function runAgainstScalar(name: string) {
  const peer = await serveScalar(spec(name));
  peers.push(peer);
  const json = join(folder(), 'report.json');
  // What Scalar pushes, it pushes on connect; a reply it never sends is waited for a second.
  const argv = ['--spec', spec(name), '--ws', peer.url, '--sample-window', '1000', '--check-timeout', '1000'];
  const r = await conformance([...argv, '--report', `json:${json}`]);
  const report =
    r.code === 2 && r.err.includes('server unreachable') ? null : (JSON.parse(readFileSync(json, 'utf8')) as Report);
  return { ...r, report };
}

/** A departure of Scalar's from the spec, as the runner must name it: its check, rule ids and what it got. */
interface Departure {
  what: string;
  check: string;
  rules: string[];
  got: (got: string) => boolean;
}

/** Whether a finding quotes a `subscribe` message (a reply's verdict adds `: why` after the frame). */
function isSubscribe(got: string): boolean {
  try {
    return (JSON.parse(got.split(': ')[0]!) as { event?: unknown }).event === 'subscribe';
  } catch {
    return false;
  }
}

const SUBSCRIBED_BY_SUBSCRIBE = "the ticker's subscribe answered with a subscribe message";
const BARE_STRING = "Postman echo's string reply sent bare, no JSON";
const DEPARTURES: Record<string, Departure[]> = {
  ticker: [
    // Its answer carries reqid 1: taken as the reply (invalid) if the request's reqid was 1, else none came.
    {
      what: SUBSCRIBED_BY_SUBSCRIBE,
      check: 'messages.send.subscribe',
      rules: ['messages.reply-conforms', 'messages.reply-within-bound'],
      got: (g) => isSubscribe(g) || g === 'nothing',
    },
    {
      what: SUBSCRIBED_BY_SUBSCRIBE,
      check: 'messages.address.ticker',
      rules: ['messages.no-unasked-message'],
      got: isSubscribe,
    },
  ],
  'postman-echo': [
    {
      what: BARE_STRING,
      check: 'messages.send.sendEchoMessage',
      rules: ['messages.reply-within-bound'],
      got: (g) => g === 'only a frame that is no JSON: test',
    },
    {
      what: BARE_STRING,
      check: 'messages.address.echo',
      rules: ['messages.no-unasked-message'],
      got: (g) => g === 'test',
    },
  ],
};

const matching = (d: Departure, check: string, f: Finding) =>
  d.check === check && d.rules.includes(f.ruleId ?? '') && d.got(f.got);

describe('the runner against @scalar/mock-server: no violation the peer did not commit', () => {
  for (const name of Object.keys(DEPARTURES))
    it(`${name}: every failure is a known departure of Scalar's, and each is reported`, async () => {
      const { code, out, report } = await runAgainstScalar(name);
      const found = report!.checks.flatMap((c) => c.findings.map((f) => ({ check: c.id, f })));
      const departures = DEPARTURES[name]!;
      expect(
        found.filter(({ check, f }) => !departures.some((d) => matching(d, check, f))),
        out,
      ).toEqual([]);
      expect(
        departures.filter((d) => !found.some(({ check, f }) => matching(d, check, f))),
        out,
      ).toEqual([]);
      // What the peer does as the spec says passes: every check but the departures' own.
      const departed = new Set(departures.map((d) => d.check));
      expect(report!.checks.map((c) => [c.id, c.status])).toEqual(
        report!.checks.map((c) => [c.id, departed.has(c.id) ? 'fail' : 'pass']),
      );
      expect(code).toBe(1);
    });

  it('gemini, written from the server side: Scalar pushes nothing; inconclusive, no violation (exit 2)', async () => {
    const { code, err, report } = await runAgainstScalar('gemini');
    expect(report!.checks.map((c) => c.status)).toEqual(['inconclusive', 'inconclusive']);
    expect(err).toMatch(/nothing was checked/);
    expect(code).toBe(2);
  });

  for (const [name, status] of [
    ['kraken-message-filter', 404],
    ['kraken-multiple-channels', 404],
    ['slack-rtm', 200],
  ] as const)
    it(`${name}: Scalar gives it no WebSocket route; the runner says unreachable (exit 2), no violation`, async () => {
      const { code, err } = await runAgainstScalar(name);
      expect(err).toMatch(new RegExp(`server unreachable: .*answered HTTP ${status} instead of a WebSocket`));
      expect(code).toBe(2);
    });
});
