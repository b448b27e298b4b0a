/**
 * Issue 35, items 2 and 4: login cases carry a fresh valid signature around the generated part; generated
 * valid orders are each signed freshly, accepted, cancelled and gone from the open orders; a second login
 * on one connection keeps what the document implies. Each region has a server wrong only there (faulty.ts,
 * in front of the sandbox), caught by a generated run of that region alone; the sandbox passes them all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoverLoginSigner } from '@exchange-api/auth';
import { startSandbox, type Sandbox } from '@exchange-api/sandbox';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGenerated, runReplay, type Report } from '@exchange-api/conformance';
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

/** A generated run of the chosen targets, order flow allowed, against a server wrong only as `faults` say. */
async function against(
  faults: Faults,
  only: string[],
  allowOrderFlow = true,
  replayDir: string | null = null,
): Promise<Report> {
  const faulty = await startFaulty(sandbox, faults);
  try {
    return await runGenerated({
      loadSpec,
      ws: faulty.wsUrl,
      http: faulty.httpUrl,
      seed: 11,
      only,
      allowOrderFlow,
      replayDir,
    });
  } finally {
    await faulty.close();
  }
}

const check = (r: Report, id: string) => r.checks.find((c) => c.id === id)!;
const rules = (r: Report, id: string) => check(r, id).findings.map((f) => f.rule);
const obj = (v: unknown) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

/** Whether a login's proof verifies: the wallet signed the timestamp. */
function verifies(params: unknown): boolean {
  const p = obj(params);
  try {
    const proof = { timestamp: String(p.timestamp), signature: String(p.signature) };
    return recoverLoginSigner(proof).toLowerCase() === String(p.wallet).toLowerCase();
  } catch {
    return false;
  }
}

const ORDER = 'generated.sequence.order-inputs';
const RELOGIN = 'generated.sequence.login-again';
const LOGIN = 'generated.public/login@ws';

describe('login and signed requests generated around a fresh valid signature', () => {
  it('the sandbox passes: logins, generated orders (cleaned up) and a second login', async () => {
    const report = await against({}, [LOGIN, RELOGIN, ORDER]);
    // In run order: the sequences before the methods.
    expect(report.checks.map((c) => [c.id, c.status, c.status === 'fail' ? c.reason : ''])).toEqual([
      [RELOGIN, 'pass', ''],
      [ORDER, 'pass', ''],
      [LOGIN, 'pass', ''],
    ]);
    const rows = report.generated!.targets.find((t) => t.id === ORDER)!.classes!;
    const row = (cls: string) => rows.find((r) => r.cls === cls);
    expect(row('valid decimal form')!.pass).toBeGreaterThanOrEqual(6);
    expect(row('valid enum value')!.pass).toBeGreaterThanOrEqual(4);
    expect(row('state after cancel')!.pass).toBeGreaterThan(0);
    expect(row('valid enum value: trades')!.notReached).toMatch(/order_type = market/);
    expect(row('valid enum value: other order kinds')!.notReached).toMatch(/trigger_type = /);
    const classes = (id: string) => report.generated!.targets.find((t) => t.id === id)!.classes!;
    const login = classes(LOGIN).map((r) => [r.cls, r.run > 0 && r.fail === 0]);
    expect(login).toContainEqual(['valid proof less a member', true]);
    expect(login).toContainEqual(['valid proof in another form', true]);
    expect(classes(RELOGIN)).toMatchObject([{ cls: 'state after a second login', fail: 0 }]);
    // The other wallet's login is what the document leaves open: a note, not a verdict.
    expect(
      check(report, RELOGIN)
        .observations.map((o) => o.text)
        .join('\n'),
    ).toMatch(/another wallet/);
  }, 180_000);

  it('a server that closes the socket on a verified login carrying an extra member is caught', async () => {
    const faults: Faults = {
      request: (r) =>
        r.method === 'public/login' && 'x_extra_member' in obj(r.params) && verifies(r.params) ? 'close' : undefined,
    };
    const report = await against(faults, [LOGIN]);
    expect(check(report, LOGIN).status).toBe('fail');
    expect(rules(report, LOGIN)).toContain('a request never closes the connection');
  }, 120_000);

  it('a server refusing a verified login whose timestamp is a JSON number (an allowed form) is caught', async () => {
    const faults: Faults = {
      request: (r) =>
        r.method === 'public/login' && typeof obj(r.params).timestamp === 'number' && verifies(r.params)
          ? { error: { code: 14001, message: 'Invalid signature' } }
          : undefined,
    };
    const dir = mkdtempSync(join(tmpdir(), 'generate-signed-'));
    try {
      const report = await against(faults, [LOGIN], true, dir);
      expect(check(report, LOGIN).status).toBe('fail');
      expect(rules(report, LOGIN)).toEqual(['a login with a fresh valid signature is accepted']);
      // Replayed, the login goes around a fresh proof again (the recorded one is stale): still failing, then fixed.
      const [file] = readdirSync(dir).map((f) => join(dir, f));
      const again = await startFaulty(sandbox, faults);
      try {
        expect((await runReplay({ file: file!, ws: again.wsUrl, loadSpec })).status).toBe('still-failing');
      } finally {
        await again.close();
      }
      expect((await runReplay({ file: file!, ws: sandbox.wsUrl, loadSpec })).status).toBe('fixed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('a server that refuses a valid order whose decimal is written in another allowed form is caught', async () => {
    const odd = (v: unknown) => typeof v === 'string' && (/^0[0-9]/.test(v) || /\.[0-9]*0$/.test(v));
    const faults: Faults = {
      request: (r) => {
        const p = obj(r.params);
        return r.method === 'private/order' && [p.amount, p.limit_price, p.max_fee].some(odd)
          ? { error: { code: -32602, message: 'Invalid params: decimal' } }
          : undefined;
      },
    };
    const report = await against(faults, [ORDER]);
    expect(check(report, ORDER).status).toBe('fail');
    expect(rules(report, ORDER)).toContain('a valid signed order is accepted');
    expect(
      check(report, ORDER)
        .findings.map((f) => f.got)
        .join('\n'),
    ).toMatch(/\/(amount|limit_price|max_fee) = "/);
  }, 180_000);

  it('a server whose cancel answers but leaves the order open is caught, and the order cleaned up', async () => {
    const faults: Faults = {
      request: (r) => (r.method === 'private/cancel' ? { result: { order_id: obj(r.params).order_id } } : undefined),
    };
    const report = await against(faults, [ORDER]);
    expect(check(report, ORDER).status).toBe('fail');
    expect(rules(report, ORDER)).toContain('a cancelled order is gone from the open orders');
    expect(
      check(report, ORDER)
        .observations.map((o) => o.text)
        .join('\n'),
    ).not.toMatch(/left open/);
  }, 180_000);

  it('a server that drops the subscriptions on a second login by the same wallet is caught', async () => {
    const faults: Faults = {
      request: (r, conn) =>
        r.method === 'public/login' && (conn.calls.get('public/login') ?? 0) >= 2
          ? { before: { method: 'unsubscribe', params: {} } }
          : undefined,
    };
    const report = await against(faults, [RELOGIN]);
    expect(check(report, RELOGIN).status).toBe('fail');
    expect(rules(report, RELOGIN)).toContain(
      'a second login by the same wallet keeps the subscriptions (only unsubscribe drops them)',
    );
  }, 120_000);

  it('without --allow-order-flow the coverage table names the order classes not reached, and why', async () => {
    const report = await against({}, [ORDER], false);
    const rows = report.generated!.targets.find((t) => t.id === ORDER)!.classes!;
    expect(rows.map((r) => r.cls)).toEqual(['valid decimal form', 'valid enum value', 'state after cancel']);
    expect(rows.every((r) => r.run === 0 && /allow-order-flow/.test(r.notReached ?? ''))).toBe(true);
  }, 60_000);
});
