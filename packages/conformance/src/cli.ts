/** The command line of `exchange-api conformance`: parsing, running, writing reports, exit codes. */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runConformance, UnreachableError, resolveOptions } from './runner';
import { consoleReport, progressLine } from './reporters/console';
import { jsonReport } from './reporters/json';
import { junitReport } from './reporters/junit';
import { htmlReport } from './reporters/html';
import type { Report } from './model';

/** A report destination: the console, or a file in one of the formats. */
export type ReportTarget = { kind: 'console' } | { kind: 'json' | 'junit' | 'html'; path: string };

/** The parsed command line. */
export interface CliOptions {
  ws: string;
  http: string | null;
  key: string | null;
  sessionKey: string | null;
  wallet: string | null;
  only: string[];
  skip: string[];
  allowOrderFlow: boolean;
  reports: ReportTarget[];
}

/** The --help text. */
export function usage(): string {
  return `Usage: exchange-api conformance --ws <url> [options]

Checks a server against the Exchange Streaming and Request API v3, rule by rule.

Options:
  --ws <url>                 WebSocket URL of the server (required), e.g. wss://testnet.example/v3/ws
  --http <url>               HTTP base URL; enables the HTTP checks (requests go to <url>/v3/...)
  --key <hex>                private key of a wallet for the login checks (or env EXCHANGE_API_KEY)
  --session-key <hex>        a session key the server has registered for --wallet
  --wallet <address>         the wallet the session key belongs to
  --only <pattern>           run only matching checks (repeatable; comma lists; * wildcard; an area name)
  --skip <pattern>           leave out matching checks (same patterns)
  --allow-order-flow         allow checks that place and cancel orders (never done without it)
  --report <target>          console | json:<path> | junit:<path> | html:<path> (repeatable; default console)
  -h, --help                 this text

Exit codes:
  0  no check failed: every check that ran passed or was inconclusive (could not gather evidence, e.g.
     nothing pushed in the window or stopped by its time limit); skipped checks do not count either
  1  at least one check failed (MUST or SHOULD)
  2  usage error or unreachable server
  Inconclusive checks are counted in the summary and in the JSON report's summary.inconclusive.

Examples:
  exchange-api conformance --ws ws://127.0.0.1:8080/v3/ws --http http://127.0.0.1:8080
  EXCHANGE_API_KEY=0x… exchange-api conformance --ws wss://testnet.example/v3/ws --report junit:conformance.xml
  exchange-api conformance --ws ws://localhost:8080/v3/ws --key 0x… --only login,access --report html:report.html
  exchange-api conformance --ws ws://localhost:8080/v3/ws --key 0x… --allow-order-flow --skip 'ratelimit.*'`;
}

/** Parse argv; returns the options, `'help'`, or an error line (exit 2). */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined> = process.env): CliOptions | 'help' | { error: string } {
  let values: {
    ws?: string; http?: string; key?: string; 'session-key'?: string; wallet?: string;
    only?: string[]; skip?: string[]; report?: string[]; 'allow-order-flow'?: boolean; help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        ws: { type: 'string' }, http: { type: 'string' }, key: { type: 'string' }, 'session-key': { type: 'string' }, wallet: { type: 'string' },
        only: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true }, report: { type: 'string', multiple: true },
        'allow-order-flow': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { error: `${(err as Error).message.split('\n')[0]} (see --help)` };
  }
  if (values.help) return 'help';
  const o: CliOptions = {
    ws: values.ws ?? '',
    http: values.http ?? null,
    key: values.key ?? (env.EXCHANGE_API_KEY || null),
    sessionKey: values['session-key'] ?? null,
    wallet: values.wallet ?? null,
    only: values.only ?? [],
    skip: values.skip ?? [],
    allowOrderFlow: values['allow-order-flow'] === true,
    reports: [],
  };
  for (const value of values.report ?? []) {
    if (value === 'console') {
      o.reports.push({ kind: 'console' });
      continue;
    }
    const m = /^(json|junit|html):(.+)$/.exec(value);
    if (!m) return { error: `--report ${JSON.stringify(value)}: use console, json:<path>, junit:<path> or html:<path>` };
    o.reports.push({ kind: m[1] as 'json' | 'junit' | 'html', path: m[2]! });
  }
  if (!o.ws) return { error: '--ws <url> is required (see --help)' };
  if (o.reports.length === 0) o.reports.push({ kind: 'console' });
  try {
    resolveOptions({ ws: o.ws, http: o.http, key: o.key, sessionKey: o.sessionKey, wallet: o.wallet });
  } catch (err) {
    return { error: (err as Error).message };
  }
  return o;
}

/** Where the command writes: injectable for tests. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Write the file reports of a finished run. */
export function writeReports(report: Report, targets: readonly ReportTarget[]): string[] {
  const written: string[] = [];
  for (const t of targets) {
    if (t.kind === 'console') continue;
    const text = t.kind === 'json' ? jsonReport(report) : t.kind === 'junit' ? junitReport(report) : htmlReport(report);
    writeFileSync(t.path, text);
    written.push(`${t.kind} report: ${t.path}`);
  }
  return written;
}

/** Run the command: 0 no check failed (passed or inconclusive), 1 a check failed, 2 usage error or unreachable server. */
export async function runCli(argv: readonly string[], io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }, env: Record<string, string | undefined> = process.env): Promise<number> {
  const parsed = parseCli(argv, env);
  if (parsed === 'help') {
    io.out(usage());
    return 0;
  }
  if ('error' in parsed) {
    io.err(`exchange-api conformance: ${parsed.error}`);
    return 2;
  }
  const toConsole = parsed.reports.some((r) => r.kind === 'console');
  let report: Report;
  try {
    report = await runConformance({
      ws: parsed.ws,
      http: parsed.http,
      key: parsed.key,
      sessionKey: parsed.sessionKey,
      wallet: parsed.wallet,
      only: parsed.only,
      skip: parsed.skip,
      allowOrderFlow: parsed.allowOrderFlow,
      onProgress: (e) => {
        if (e.type === 'discovered') io.out(`exchange-api conformance: ${parsed.ws} — ${e.checks} checks; connection budget ${e.env.connectionBudget} (${e.env.connectionBudgetSource}); instrument ${e.env.perp?.instrument_name ?? 'none known'}`);
        else if (e.type === 'done') io.out(progressLine(e.result, e.index, e.total));
      },
    });
  } catch (err) {
    if (err instanceof UnreachableError) {
      io.err(`exchange-api conformance: server unreachable: ${err.message}`);
      return 2;
    }
    throw err;
  }
  for (const line of writeReports(report, parsed.reports)) io.out(line);
  if (toConsole) io.out(`\n${consoleReport(report)}`);
  else io.out(`${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped, ${report.summary.inconclusive} inconclusive`);
  return report.exitCode;
}
