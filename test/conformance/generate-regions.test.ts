/**
 * Issue 35's regions: servers wrong in one region of the spec only, each caught by a default generated
 * run of the targets of that region (channel parameter combinations, long addresses, the state after an
 * unsubscribe, members an open object allows, every transport's result), each with the coverage table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { consoleReport, htmlReport, runGenerated, type Report } from '@exchange-api/conformance';
import { startFaulty, type Faults } from './faulty';
import { generousLimits } from './generous';
import { loadSpec } from '../support/spec-model';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, limits: generousLimits });
});
afterAll(async () => {
  await sandbox.close();
});

/** A generated run of the chosen targets against a server in front of the sandbox, wrong only as `faults` say. */
async function against(faults: Faults, only: string[]): Promise<Report> {
  const faulty = await startFaulty(sandbox, faults);
  try {
    return await runGenerated({ loadSpec, ws: faulty.wsUrl, http: faulty.httpUrl, seed: 7, only, replayDir: null });
  } finally {
    await faulty.close();
  }
}

const check = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;
const rules = (r: Report, id: string) => check(r, id).findings.map((f) => f.rule);

describe('generated testing reaches every region of the spec', () => {
  it('a server that hangs on a long channel address is caught', async () => {
    const faults: Faults = {
      request: (r) => {
        const channels = (r.params as { channels?: unknown } | null)?.channels;
        const long = Array.isArray(channels) && channels.some((c) => String(c).length > 500);
        return r.method === 'subscribe' && long ? 'silent' : undefined;
      },
    };
    const report = await against(faults, ['generated.channel.spotFeed']);
    expect(check(report, 'generated.channel.spotFeed').status).toBe('fail');
    expect(rules(report, 'generated.channel.spotFeed')).toContain(
      'a subscribe with a long address is answered on an open connection',
    );
  }, 120_000);

  it('a server that drops every subscription on an empty unsubscribe is caught', async () => {
    const faults: Faults = {
      request: (r) => {
        const channels = (r.params as { channels?: unknown } | null)?.channels;
        return r.method === 'unsubscribe' && Array.isArray(channels) && channels.length === 0
          ? { params: {} }
          : undefined;
      },
    };
    const report = await against(faults, ['generated.sequence.subscribe-unsubscribe']);
    const seq = check(report, 'generated.sequence.subscribe-unsubscribe');
    expect(seq.status).toBe('fail');
    expect(seq.findings[0]!.rule).toBe('current_subscriptions follows the requests');
  }, 120_000);

  it('a server answering a member the open params allow with a code outside the table is caught', async () => {
    const faults: Faults = {
      request: (r) =>
        typeof r.params === 'object' && r.params !== null && 'x_extra_member' in r.params
          ? { error: { code: 12345, message: 'Unknown field' } }
          : undefined,
    };
    const report = await against(faults, ['generated.public/get_instrument@ws']);
    expect(check(report, 'generated.public/get_instrument@ws').status).toBe('fail');
    expect(rules(report, 'generated.public/get_instrument@ws')).toContain('error codes come from the error table');
  }, 120_000);

  it('a server whose HTTP answers carry numbers where the schema says decimal strings is caught', async () => {
    const faults: Faults = {
      http: (method, body) => {
        const result = (body as { result?: Record<string, unknown> }).result;
        if (method !== 'public/get_instrument' || typeof result !== 'object' || result === null) return body;
        return { ...(body as object), result: { ...result, tick_size: Number(result.tick_size) } };
      },
    };
    const report = await against(faults, ['generated.public/get_instrument@*']);
    expect(check(report, 'generated.public/get_instrument@ws').status).toBe('pass');
    expect(check(report, 'generated.public/get_instrument@http').status).toBe('fail');
    expect(rules(report, 'generated.public/get_instrument@http')).toContain('the result conforms to the result schema');
  }, 120_000);

  it('order-book pushes broken only for one group × depth combination are caught', async () => {
    // group 10 with depth 20: neither value is first in its list, so one value at a time never meets it.
    const faults: Faults = {
      push: (channel, data) =>
        /^orderbook\.[^.]+\.10\.20$/.test(channel) ? { ...(data as object), bids: [{ price: '1' }] } : data,
    };
    const report = await against(faults, ['generated.channel.orderbook']);
    const book = check(report, 'generated.channel.orderbook');
    expect(book.status).toBe('fail');
    expect(book.findings.map((f) => f.message).join('\n')).toMatch(/orderbook\.[^.]+\.10\.20/);
    const rows = report.generated!.targets.find((t) => t.id === 'generated.channel.orderbook')!.classes!;
    expect(rows.filter((r) => r.cls.startsWith('address orderbook.')).length).toBeGreaterThanOrEqual(12);
  }, 120_000);

  it('trade pushes broken only for instrument types other than perps are caught', async () => {
    const faults: Faults = {
      push: (channel, data) => (/^trades\.(option|erc20)\./.test(channel) ? [{ trade_id: 7 }] : data),
    };
    const report = await against(faults, ['generated.channel.tradesByType']);
    const trades = check(report, 'generated.channel.tradesByType');
    expect(trades.status).toBe('fail');
    expect(trades.findings.map((f) => f.message).join('\n')).toMatch(/trades\.(option|erc20)\./);
  }, 120_000);

  it('a server that closes the socket on a login with an extra member is caught', async () => {
    const faults: Faults = {
      request: (r) =>
        r.method === 'public/login' && typeof r.params === 'object' && r.params !== null && 'x_extra_member' in r.params
          ? 'close'
          : undefined,
    };
    const report = await against(faults, ['generated.public/login@ws']);
    expect(check(report, 'generated.public/login@ws').status).toBe('fail');
    expect(rules(report, 'generated.public/login@ws')).toContain('a request never closes the connection');
  }, 120_000);

  it('the report has a coverage table that names what was not reached and why', async () => {
    const report = await against({}, ['generated.private/order@ws', 'generated.public/get_time@*']);
    const rows = report.generated!.targets.flatMap((t) => t.classes ?? []);
    expect(rows.some((r) => r.cls === 'valid edge' && r.run > 0)).toBe(true);
    const order = report.generated!.targets.find((t) => t.id === 'generated.private/order@ws')!;
    expect(order.classes!.length).toBeGreaterThan(1);
    expect(order.classes!.every((r) => r.run === 0 && /allow-order-flow/.test(r.notReached ?? ''))).toBe(true);
    const text = consoleReport(report);
    expect(text).toMatch(/^coverage: \d+ of \d+ regions \(target × input class\) reached$/m);
    expect(text).toMatch(/^not reached \(needs --allow-order-flow.*\): private\/order@ws \[/m);
    expect(htmlReport(report)).toContain('<h2>Coverage</h2>');
  }, 120_000);
});
