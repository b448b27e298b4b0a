/** The command line of `exchange-api conformance`: running, writing reports, exit codes (parsing: cli-args.ts). */
import { runConformance, UnreachableError } from './runner';
import { consoleReport, progressLine } from './reporters/console';
import { visible } from './reporters/visible';
import { endpointName } from './endpoint-name';
import { parseCli, type CliOptions } from './cli-args';
import { checkTargets, writeReports } from './report-targets';
import { runGenerateCli, runReplayCli } from './generate/cli';
import type { Report } from './model';
import type { SpecLoader } from './generate/spec-model';
import { messageFlagProblem, messageSpecOf, onceLoader, runMessagesCli } from './messages/cli';
import { runMessageReplayCli } from './messages/replay-cli';
import { NOTHING_CHECKED } from './messages/report';
import type { MsgSpec } from './messages/wire-shape';

export { parseCli, type CliOptions } from './cli-args';
export { writeReports, type ReportTarget } from './report-targets';

/** The --help text. */
export function usage(): string {
  return `Usage: exchange-api conformance --ws <url> [options]

Checks a server against the Exchange Streaming and Request API v3, rule by rule.

Options:
  --ws <url>                 WebSocket URL of the server (required), e.g. wss://testnet.example/v3/ws;
                             or URL1,URL2,… for the endpoints of one deployment (the deployment checks:
                             budgets, connection limit, nonces, pushes shared across them; every other
                             check runs against the first)
  --http <url>               HTTP base URL; enables the HTTP checks (requests go to <url>/v3/...); with
                             several --ws URLs, as many in the same order, or one for all
  --key <hex>                private key of a wallet for the login checks (or env EXCHANGE_API_KEY)
  --session-key <hex>        a session key the server has registered for --wallet
  --wallet <address>         the wallet the session key belongs to
  --only <pattern>           run only matching checks (repeatable; comma lists; * wildcard; an area name)
  --skip <pattern>           leave out matching checks (same patterns)
  --allow-order-flow         allow checks that place and cancel orders (never done without it)
  --report <target>          console | json:<path> | junit:<path> | html:<path> (repeatable; default console);
                             every path is checked before the run
  --check-timeout <ms>       time limit of one check (default 25000; a check past it is inconclusive)
  --sample-window <ms>       how long to sample the public channels (default 4500)
  -h, --help                 this text

Generated inputs (instead of the hand-written checks):
  --generate                 for every method on each transport the spec serves it on, inputs generated
                             from its params schema (valid and invalid), the channel address templates,
                             invariants of what is pushed and stateful sequences; each failure shrunk and
                             written as a replay file
  --seed <n>                 the seed (default: a random one, printed); the same seed reproduces a run
  --cases <n>                random valid inputs per method and transport besides the edges (default 3)
  --duration <s>             start no case after this many seconds (default 600); the rest is counted
  --replay-dir <dir>         where replay files go (default ./conformance-replays; checked before the run;
                             never written through a symbolic link nor over a file)
  --spec <file>              the AsyncAPI spec (3.x; 1.x/2.x converted) to generate from or judge by
                             (default: this clone's spec/asyncapi.yaml, else the one @exchange-api/types
                             ships); a spec that speaks its own messages (not JSON-RPC) is checked with or
                             without --generate: --check-timeout is then the bound of one reply (default
                             5000), a reply not within it fails; a run that checked nothing exits 2
  --replay <file>            send a replay file's frames again: prints FIXED (exit 0), STILL FAILING
                             (exit 1) or INCONCLUSIVE (no answer, exit 2); a replay of order flow
                             (orders, cancels) only with --allow-order-flow

Exit codes:
  0  no check failed: every check that ran passed or was inconclusive (could not gather evidence, e.g.
     nothing pushed in the window or stopped by its time limit); skipped checks do not count either
  1  at least one check failed (MUST or SHOULD)
  2  usage error, a report that cannot be written, an unreachable server, a server that stopped
     answering during the run (the reports say during which check), or a --key wallet the server
     refused at login with access denied (said once; the checks that need a login are not run)
  Inconclusive checks are counted in the summary and in the JSON report's summary.inconclusive.

Examples:
  exchange-api conformance --ws ws://127.0.0.1:8080/v3/ws --http http://127.0.0.1:8080
  EXCHANGE_API_KEY=0x… exchange-api conformance --ws wss://testnet.example/v3/ws --report junit:conformance.xml
  exchange-api conformance --ws ws://localhost:8080/v3/ws --key 0x… --only login,access --report html:report.html
  exchange-api conformance --ws ws://localhost:8080/v3/ws --key 0x… --allow-order-flow --skip 'ratelimit.*'
  exchange-api conformance --ws ws://10.0.0.1:8080/v3/ws,ws://10.0.0.2:8080/v3/ws \
    --http http://10.0.0.1:8080,http://10.0.0.2:8080 --key 0x… --allow-order-flow --only deployment`;
}

/** Where the command writes: injectable for tests. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The server, or the endpoints of the deployment named A, B, …, for the first line of a run. */
function targetOf(p: CliOptions): string {
  if (!p.otherEndpoints) return p.ws;
  const all = [{ ws: p.ws, http: p.http }, ...p.otherEndpoints];
  return `one deployment, ${all.map((e, i) => `${endpointName(i)} ${e.ws}${e.http ? ` (${e.http})` : ''}`).join(', ')}`;
}

/**
 * Run the checks for the parsed command line, with progress lines; null when the server is unreachable (said on
 * `io.err`).
 */
async function run(parsed: CliOptions, io: CliIo): Promise<Report | null> {
  try {
    return await runConformance({
      ws: parsed.ws,
      http: parsed.http,
      ...(parsed.otherEndpoints ? { otherEndpoints: parsed.otherEndpoints } : {}),
      key: parsed.key,
      sessionKey: parsed.sessionKey,
      wallet: parsed.wallet,
      only: parsed.only,
      skip: parsed.skip,
      allowOrderFlow: parsed.allowOrderFlow,
      ...(parsed.checkTimeoutMs !== undefined ? { checkTimeoutMs: parsed.checkTimeoutMs } : {}),
      ...(parsed.sampleWindowMs !== undefined ? { sampleWindowMs: parsed.sampleWindowMs } : {}),
      onProgress: (e) => {
        if (e.type === 'discovered')
          io.out(
            visible(
              `exchange-api conformance: ${targetOf(parsed)} — ${e.checks} checks; connection ` +
                `budget ${e.env.connectionBudget} (${e.env.connectionBudgetSource}); instrument ` +
                `${e.env.perp?.instrument_name ?? 'none known'}`,
            ),
          );
        else if (e.type === 'key-refused') io.out(visible(`exchange-api conformance: ${e.reason}`));
        else if (e.type === 'done') io.out(progressLine(e.result, e.index, e.total));
      },
    });
  } catch (err) {
    if (!(err instanceof UnreachableError)) throw err;
    io.err(visible(`exchange-api conformance: server unreachable: ${err.message}`));
    return null;
  }
}

/**
 * Run the command: 0 no check failed (passed or inconclusive), 1 a check failed, 2 usage error, a report
 * that cannot be written, or a server unreachable (at the start or later in the run).
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
  env: Record<string, string | undefined> = process.env,
  /** What --generate and --replay read the spec with: the exchange-api command passes the generator's loader. */
  loadSpec?: SpecLoader,
): Promise<number> {
  const parsed = parseCli(argv, env);
  if (parsed === 'help') {
    io.out(usage());
    return 0;
  }
  const usageError = 'error' in parsed ? parsed.error : checkTargets(parsed.reports);
  if (usageError !== null) {
    io.err(`exchange-api conformance: ${usageError}`);
    return 2;
  }
  const p = parsed as CliOptions;
  const load = loadSpec ? onceLoader(loadSpec) : undefined;
  const framed = await framing(p, argv, io, load);
  if (typeof framed === 'number') return framed;
  if (p.replay) return framed ? runMessageReplayCli(p, framed, io) : runReplayCli(p, io, load);
  const report = framed
    ? await runMessagesCli(p, framed, io)
    : p.generate
      ? await runGenerateCli(p, io, load)
      : await run(p, io);
  if (!report) return 2;
  const { written, error } = writeReports(report, p.reports);
  for (const line of written) io.out(line);
  if (p.reports.some((r) => r.kind === 'console')) io.out(`\n${consoleReport(report)}`);
  else
    io.out(
      `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped}` +
        ` skipped, ${report.summary.inconclusive} inconclusive`,
    );
  if (error) {
    io.err(`exchange-api conformance: ${error}`);
    return 2;
  }
  if (report.interrupted) {
    const notRun = report.checks.filter((c) => c.reason?.startsWith('not run:')).length;
    io.err(
      visible(
        `exchange-api conformance: the server stopped answering during ${report.interrupted.check}` +
          ` (${report.interrupted.reason}); ${notRun} check${notRun === 1 ? '' : 's'} not run`,
      ),
    );
    return 2;
  }
  if (report.exitCode === 2 && !report.keyRefused && report.summary.passed === 0 && report.summary.failed === 0)
    io.err(`exchange-api conformance: ${NOTHING_CHECKED}`);
  return report.exitCode;
}

/**
 * With --spec, the spec's framing: its message spec (the message checks run), null (JSON-RPC: the checks
 * of our interface, where --spec belongs to --generate and --replay), or the exit code of a refusal.
 */
async function framing(
  p: CliOptions,
  argv: readonly string[],
  io: CliIo,
  load: SpecLoader | undefined,
): Promise<MsgSpec | null | number> {
  if (!p.spec || !load) return p.spec && !p.generate && !p.replay ? refuse(io, SPEC_ONLY) : null;
  let spec: MsgSpec | null;
  try {
    spec = await messageSpecOf(p.spec, load, io);
  } catch (err) {
    io.err(visible(`exchange-api conformance: ${(err as Error).message}`));
    return 2;
  }
  if (!spec) return !p.generate && !p.replay ? refuse(io, SPEC_ONLY) : null;
  const problem = messageFlagProblem(p, argv, spec);
  return problem ? refuse(io, problem) : spec;
}

const SPEC_ONLY =
  '--spec applies to --generate and --replay (for a spec that speaks its own messages, it also runs the checks)';

function refuse(io: CliIo, why: string): number {
  io.err(`exchange-api conformance: ${why}`);
  return 2;
}
