/**
 * A runner whose own wallet the server refuses (a sandbox that knows only its configured wallets, and a
 * random --key): one line says so, the checks that need the login are not run, and nothing is blamed
 * on the server. A configured wallet on the same kind of sandbox is let in and the checks run.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { startSandbox } from '@exchange-api/sandbox';
import { runCli, runConformance, type Report } from '@exchange-api/conformance';
import { errorByName } from '@exchange-api/types';

const denied = errorByName('AUTH_ACCESS_DENIED');

describe('the runner’s own wallet refused at login', () => {
  it('says so once, runs none of the checks that need the login, fails none, exits 2', async () => {
    const sandbox = await startSandbox({ port: 0, knownWalletsOnly: true });
    const key = Wallet.createRandom();
    const json = join(mkdtempSync(join(tmpdir(), 'key-refused-')), 'report.json');
    const out: string[] = [];
    try {
      const code = await runCli(
        [
          '--ws',
          sandbox.wsUrl,
          '--http',
          sandbox.httpUrl,
          '--key',
          key.privateKey,
          '--only',
          'login,access,ratelimit',
          '--report',
          `json:${json}`,
          '--report',
          'console',
        ],
        { out: (l) => out.push(l), err: (l) => out.push(l) },
        {},
      );
      const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
      expect(code, out.join('\n')).toBe(2);
      expect(report.exitCode).toBe(2);
      expect(report.keyRefused?.wallet).toBe(key.address);
      expect(report.keyRefused?.error.code).toBe(denied.code);
      expect(report.keyRefused?.reason).toMatch(
        /the runner's wallet .* was refused at login .*checks that need a login were not run/,
      );
      // Nothing is blamed on the server: no failure, and every check that needs the key is not run.
      expect(report.checks.filter((c) => c.status === 'fail').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
      const needing = report.checks.filter((c) => c.needs.includes('key'));
      expect(needing.length).toBeGreaterThan(10);
      for (const c of needing)
        expect([c.id, c.status, c.reason]).toEqual([c.id, 'skip', expect.stringMatching(/^not run: it needs a login/)]);
      // Said once while the checks run (the progress), and once in the console report's summary.
      const progress = out.filter((l) => l.startsWith('exchange-api conformance: the runner'));
      expect(progress).toEqual([`exchange-api conformance: ${report.keyRefused!.reason}`]);
      expect(out.filter((l) => l.includes(`${denied.code} `)).length, out.join('\n')).toBe(2);
      expect(out.join('\n')).toMatch(/^KEY REFUSED: /m);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it('a wallet the sandbox knows is let in: no refusal, the login checks run and pass', async () => {
    const key = Wallet.createRandom();
    const sandbox = await startSandbox({
      port: 0,
      knownWalletsOnly: true,
      wallets: [{ address: key.address, subaccounts: [7] }],
    });
    try {
      const report = await runConformance({
        ws: sandbox.wsUrl,
        key: key.privateKey,
        only: ['login.wallet', 'login.headers-object'],
      });
      expect(report.keyRefused).toBeUndefined();
      expect(report.checks.map((c) => [c.id, c.status])).toEqual([
        ['login.wallet', 'pass'],
        ['login.headers-object', 'pass'],
      ]);
      expect(report.exitCode).toBe(0);
    } finally {
      await sandbox.close();
    }
  }, 60_000);
});
