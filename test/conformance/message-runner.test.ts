/**
 * `exchange-api conformance --spec FILE --ws URL` for the five public WebSocket specs that speak their own
 * messages (test/sdk/fixtures/public/): the server written from each spec passes (exit 0, checks passed),
 * and each broken variant fails with its finding: a reply without its correlation id, a message of no
 * receive operation, a wrong type in a payload, no reply at all. `exchange-api mock` of each spec passes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type Report } from '@exchange-api/conformance';
import { FAULTS, SPECS, serveSpec, type Fault, type SpecName } from './message-servers';

const specFile = (name: SpecName) =>
  fileURLToPath(new URL(`../sdk/fixtures/public/${name}.asyncapi.yaml`, import.meta.url));

// The command's own loader (lenient examples for a message spec), each spec read once for all these runs.
const commandFile = fileURLToPath(new URL('../../packages/cli/src/commands/conformance.ts', import.meta.url));
type Loader = (file: string) => Promise<never>;
const models = new Map<string, Promise<never>>();
let loader: Promise<Loader> | undefined;
async function loadSpec(file: string) {
  loader ??= import(commandFile).then((m: { loadSpecModel: Loader }) => m.loadSpecModel);
  const load = await loader;
  return models.get(file) ?? models.set(file, load(file)).get(file)!;
}

const dir = mkdtempSync(join(tmpdir(), 'message-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The runner against a URL, quick bounds (loopback), its JSON report read back. */
async function check(name: SpecName, url: string, extra: string[] = []) {
  const lines: string[] = [];
  const errors: string[] = [];
  const json = join(dir, `${name}-${Math.random().toString(36).slice(2)}.json`);
  const argv = ['--spec', specFile(name), '--ws', url, '--check-timeout', '1000', '--sample-window', '300'];
  const code = await runCli(
    [...argv, '--report', `json:${json}`, ...extra],
    {
      out: (l) => lines.push(l),
      err: (l) => errors.push(l),
    },
    {},
    loadSpec,
  );
  const report = JSON.parse(readFileSync(json, 'utf8')) as Report;
  return { code, out: lines.join('\n'), err: errors.join('\n'), report };
}

const RULE: Record<Exclude<Fault, 'none'>, string> = {
  uncorrelated: 'messages.reply-correlated',
  unknown: 'messages.no-unasked-message',
  'wrong-type': 'messages.push-conforms',
  silent: 'messages.reply-within-bound',
};

describe('conformance --spec: a server written from each public spec', () => {
  for (const name of SPECS) {
    it(`${name}: passes (exit 0, checks passed, none failed)`, async () => {
      const server = await serveSpec(name);
      try {
        const { code, out, report } = await check(name, server.url);
        expect(
          report.checks.filter((c) => c.status === 'fail').map((c) => c.findings),
          out,
        ).toEqual([]);
        expect(report.summary.passed).toBeGreaterThan(0);
        expect(code).toBe(0);
        expect(out.split('\n')[0]).toMatch(
          new RegExp(`^exchange-api conformance: ${server.url} — \\d+ checks; spec .*own messages`),
        );
      } finally {
        await server.close();
      }
    });
  }
});

describe('conformance --spec: broken variants fail with the right finding', () => {
  for (const name of SPECS)
    for (const fault of FAULTS[name])
      it(`${name}, ${fault}: exit 1 with ${RULE[fault as Exclude<Fault, 'none'>]}`, async () => {
        const server = await serveSpec(name, fault);
        try {
          const { code, out, report } = await check(name, server.url);
          const rules = report.checks.flatMap((c) => c.findings.map((f) => f.ruleId));
          expect(rules, out).toContain(RULE[fault as Exclude<Fault, 'none'>]);
          expect(code).toBe(1);
        } finally {
          await server.close();
        }
      });
});
