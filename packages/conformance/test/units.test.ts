/** Pure parts: pattern selection, command-line parsing, the registry's shape, the reporters, decimals. */
import { describe, expect, it } from 'vitest';
import { channelTable } from '@exchange-api/types';
import { registry } from '../src/checks';
import { matches } from '../src/select';
import { parseCli } from '../src/cli';
import { consoleReport, progressLine } from '../src/reporters/console';
import { junitReport } from '../src/reporters/junit';
import { htmlReport } from '../src/reporters/html';
import { jsonReport } from '../src/reporters/json';
import type { Report } from '../src/model';

describe('registry', () => {
  it('has unique ids of the form area.name, each with a section and a level', () => {
    const ids = registry.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of registry) {
      expect(c.id).toMatch(/^[a-z]+\.[a-zA-Z0-9.-]+$/);
      expect(c.section.length).toBeGreaterThan(3);
      expect(['MUST', 'SHOULD']).toContain(c.level);
    }
  });
  it('has a payload check for every channel of the generated table', () => {
    for (const ch of channelTable) expect(registry.map((c) => c.id)).toContain(`channels.payload.${ch.id}`);
  });
});

describe('selection patterns', () => {
  it('matches ids, areas, globs and comma lists', () => {
    expect(matches('login.wallet', ['login'])).toBe(true);
    expect(matches('login.wallet', ['log'])).toBe(false);
    expect(matches('ratelimit.exceeded', ['ratelimit.*'])).toBe(true);
    expect(matches('channels.payload.orderbook', ['framing,channels.payload.order*'])).toBe(true);
    expect(matches('framing.id-echo-null', ['framing.id-echo-null'])).toBe(true);
    expect(matches('framing.id-echo-null', ['subscriptions'])).toBe(false);
  });
});

describe('command line', () => {
  it('parses the flags of the public contract', () => {
    const o = parseCli(
      [
        '--ws',
        'ws://h/v3/ws',
        '--http=http://h',
        '--only',
        'login',
        '--skip',
        'login.http-*',
        '--allow-order-flow',
        '--report',
        'json:r.json',
        '--report',
        'console',
      ],
      { EXCHANGE_API_KEY: `0x${'22'.repeat(32)}` },
    );
    expect(o).toMatchObject({
      ws: 'ws://h/v3/ws',
      http: 'http://h',
      key: `0x${'22'.repeat(32)}`,
      only: ['login'],
      skip: ['login.http-*'],
      allowOrderFlow: true,
      reports: [{ kind: 'json', path: 'r.json' }, { kind: 'console' }],
    });
  });
  it('refuses unknown flags, missing values and bad values with one line', () => {
    for (const argv of [
      ['--ws', 'ws://h', '--nope'],
      ['--ws'],
      [],
      ['--ws', 'http://h'],
      ['--ws', 'ws://h', '--report', 'xml:a'],
      ['--ws', 'ws://h', '--session-key', `0x${'1'.repeat(64)}`],
      ['--ws', 'ws://h', '--wallet', '0x12', '--session-key', `0x${'1'.repeat(64)}`],
    ]) {
      const r = parseCli(argv, {});
      expect(r, argv.join(' ')).toHaveProperty('error');
      expect((r as { error: string }).error).not.toContain('\n');
    }
    expect(parseCli(['-h'], {})).toBe('help');
  });
});

const report: Report = {
  format: 'exchange-api-conformance-report',
  formatVersion: 1,
  spec: { title: 'T', version: '0.2.0' },
  target: { ws: 'ws://h/v3/ws', http: null },
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  exitCode: 1,
  summary: { total: 2, passed: 1, failed: 1, skipped: 0, inconclusive: 0 },
  areas: [{ area: 'framing', total: 2, passed: 1, failed: 1, skipped: 0, inconclusive: 0 }],
  assumptions: [],
  checks: [
    {
      id: 'framing.id-echo-null',
      area: 'framing',
      title: 'ok',
      section: 'Endpoints',
      level: 'MUST',
      needs: [],
      status: 'pass',
      durationMs: 3,
      findings: [],
      observations: [],
      transcript: [],
    },
    {
      id: 'framing.id-echo-number',
      area: 'framing',
      title: 'echo <number>',
      section: 'Endpoints › WebSocket framing',
      level: 'MUST',
      needs: [],
      status: 'fail',
      reason: 'id 4242 came back as "4242"',
      durationMs: 5,
      findings: [
        { pointer: '/id', rule: 'responses echo id', expected: '4242 (number)', got: '"4242" (string)', message: 'x' },
      ],
      observations: [],
      transcript: [{ t: 1, conn: 'c#1', dir: 'sent', data: '{"id":4242,"x":"<&>"}' }],
    },
  ],
};

describe('reporters', () => {
  it('console: summary table and each failure with pointer, expected and got', () => {
    const text = consoleReport(report);
    expect(text).toMatch(/framing\s+1\s+1\s+0\s+0\s+2/);
    expect(text).toContain('/id: responses echo id — expected 4242 (number), got "4242" (string)');
  });
  it('console: control characters in server text are shown as escapes, never printed raw', () => {
    const forged = '\x1b[2K\r[2/2] PASS\x1b]0;title\x07\n\u009b2J\u202e';
    const failed = report.checks[1]!;
    const hostile: Report = {
      ...report,
      interrupted: { check: failed.id, reason: `connection closed (1006 ${forged})` },
      checks: [
        report.checks[0]!,
        {
          ...failed,
          reason: forged,
          findings: [{ pointer: `/${forged}`, rule: 'r', expected: 'e', got: forged, message: forged }],
        },
      ],
    };
    const shown = '\\x1b[2K\\r[2/2] PASS\\x1b]0;title\\x07\\n\\x9b2J\\u202e';
    const text = `${consoleReport(hostile)}\n${progressLine(hostile.checks[1]!, 1, 2)}`;
    // Every control character but the newlines that end the lines, and the bidi override.
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/);
    expect(text.split('\n').filter((l) => l.includes(shown))).toHaveLength(3);
    expect(progressLine(hostile.checks[1]!, 1, 2)).toBe(
      `[2/2] FAIL         framing.id-echo-number (MUST, 5 ms) — ${shown}`,
    );
  });
  it('JUnit: one testcase per check, failures with their transcript, escaped', () => {
    const x = junitReport(report);
    expect(x.match(/<testcase /g)).toHaveLength(2);
    expect(x).toContain('<failure message="id 4242 came back as &quot;4242&quot;" type="MUST">');
    expect(x).toContain('&lt;&amp;&gt;');
  });
  it('HTML: one page, no external assets, failures first, filter box', () => {
    const h = htmlReport(report);
    expect(h).not.toMatch(/<(link|script)[^>]+(href|src)=/);
    expect(h.indexOf('framing.id-echo-number')).toBeLessThan(h.indexOf('framing.id-echo-null'));
    expect(h).toContain('id="filter"');
    expect(h).toContain('&lt;&amp;&gt;');
  });
  it('JSON: the report as is', () => {
    expect(JSON.parse(jsonReport(report))).toEqual(report);
  });
});
