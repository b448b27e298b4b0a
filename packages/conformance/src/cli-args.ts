/**
 * Parsing the command line of `exchange-api conformance` (node:util parseArgs): flags to CliOptions, or one
 * error line naming the flag and what it takes.
 */
import { parseArgs } from 'node:util';
import { registry } from './checks';
import { resolveOptions } from './options';
import { matches } from './select';
import { selectChecks } from './runner';
import { parseTarget, type ReportTarget } from './report-targets';

/** The parsed command line. */
export interface CliOptions {
  /** The first (or only) endpoint's WebSocket URL. */
  ws: string;
  http: string | null;
  /** With `--ws URL1,URL2,…`: the endpoints after the first (absent with one endpoint). */
  otherEndpoints?: { ws: string; http: string | null }[];
  key: string | null;
  sessionKey: string | null;
  wallet: string | null;
  only: string[];
  skip: string[];
  allowOrderFlow: boolean;
  reports: ReportTarget[];
  /** Time limit of one check, ms (undefined: the default). */
  checkTimeoutMs?: number;
  /** How long to sample the public channels, ms (undefined: the default). */
  sampleWindowMs?: number;
  /** `--generate`: inputs generated from the spec instead of the hand-written checks. */
  generate: boolean;
  /** `--replay FILE`: send a recorded failure again. */
  replay: string | null;
  /** `--spec FILE`: the spec --generate and --replay read (default: the clone's or the installed one). */
  spec: string | null;
  seed?: number;
  cases?: number;
  durationS?: number;
  /** Where --generate writes replay files (default ./conformance-replays). */
  replayDir?: string;
}

const STRING_FLAGS = [
  'ws',
  'http',
  'key',
  'session-key',
  'wallet',
  'only',
  'skip',
  'report',
  'check-timeout',
  'sample-window',
  'spec',
  'seed',
  'cases',
  'duration',
  'replay',
  'replay-dir',
] as const;

/** The numeric flags: what each takes, and its bounds. */
const NUMBERS = {
  'check-timeout': { what: 'the time limit of one check in milliseconds', min: 100, max: 600_000 },
  'sample-window': { what: 'how long to sample the public channels in milliseconds', min: 100, max: 120_000 },
  seed: { what: 'the seed of the generated inputs', min: 0, max: 4_294_967_295 },
  cases: { what: 'random valid inputs per method and transport', min: 0, max: 1000 },
  duration: { what: 'how many seconds the generated run may start cases', min: 1, max: 86_400 },
} as const;

/**
 * `--flag -5` reads to parseArgs as a flag with no value ("argument is ambiguous"): join a value that
 * starts with a dash to its flag, so the flag's own check can say what it takes.
 */
function joinDashValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (
      a.startsWith('--') &&
      !a.includes('=') &&
      (STRING_FLAGS as readonly string[]).includes(a.slice(2)) &&
      next !== undefined &&
      /^-[^-]/.test(next)
    ) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** A numeric flag's value in range, or the error line naming the flag and what it takes. */
function numberFlag(flag: keyof typeof NUMBERS, raw: string | undefined): number | undefined | { error: string } {
  if (raw === undefined) return undefined;
  const { what, min, max } = NUMBERS[flag];
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    return { error: `--${flag} takes ${what}: a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})` };
  return n;
}

type Values = { [K in (typeof STRING_FLAGS)[number]]?: K extends 'only' | 'skip' | 'report' ? string[] : string } & {
  'allow-order-flow'?: boolean;
  generate?: boolean;
  help?: boolean;
};

function parse(argv: readonly string[]): Values | { error: string } {
  try {
    const { values } = parseArgs({
      args: joinDashValues(argv),
      options: {
        ws: { type: 'string' },
        http: { type: 'string' },
        key: { type: 'string' },
        'session-key': { type: 'string' },
        wallet: { type: 'string' },
        only: { type: 'string', multiple: true },
        skip: { type: 'string', multiple: true },
        report: { type: 'string', multiple: true },
        'check-timeout': { type: 'string' },
        'sample-window': { type: 'string' },
        spec: { type: 'string' },
        seed: { type: 'string' },
        cases: { type: 'string' },
        duration: { type: 'string' },
        replay: { type: 'string' },
        'replay-dir': { type: 'string' },
        generate: { type: 'boolean' },
        'allow-order-flow': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    return values as Values;
  } catch (err) {
    return { error: `${(err as Error).message.split('\n')[0]} (see --help)` };
  }
}

/** The --only patterns that match no check, as an error line, or null. */
function unmatched(only: readonly string[]): string | null {
  const patterns = only
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  const none = patterns.filter((p) => !registry.some((c) => matches(c.id, [p])));
  if (patterns.length === 0 && only.length > 0)
    return '--only takes a check id, an area or a glob (got an empty pattern)';
  return none.length
    ? `--only ${none.map((p) => JSON.stringify(p)).join(', ')} matches no check ` +
        `(ids, areas such as login, or globs such as ratelimit.*: see the package README)`
    : null;
}

/** Flags that belong to one mode used in another, as an error line, or null. */
function modeProblem(o: CliOptions, values: Values): string | null {
  if (o.generate && o.replay)
    return '--generate and --replay go separately: one run generates, the other replays a file';
  const generateOnly = (['seed', 'cases', 'duration', 'replay-dir'] as const).filter((f) => values[f] !== undefined);
  if (!o.generate && generateOnly.length) return `--${generateOnly[0]} applies to --generate`;
  if (o.replay && (o.only.length || o.skip.length)) return '--only and --skip choose checks: not with --replay';
  return null;
}

/** One comma-separated flag value as its items, or the error line saying which item is empty. */
function listOf(flag: 'ws' | 'http', raw: string): string[] | { error: string } {
  const items = raw.split(',').map((x) => x.trim());
  const empty = items.findIndex((x) => x === '');
  if (empty >= 0)
    return {
      error:
        `--${flag} takes one URL or a comma-separated list of URLs, one per endpoint ` +
        `of the deployment (got ${JSON.stringify(raw)}: item ${empty + 1} is empty)`,
    };
  return items;
}

/**
 * `--ws URL1,URL2 --http URL1,URL2`: the endpoints of one deployment (as many --http URLs as --ws URLs,
 * or one --http URL for all of them). Sets `ws`/`http` to the first and `otherEndpoints` to the rest.
 */
function splitEndpoints(o: CliOptions): { error: string } | null {
  const ws = listOf('ws', o.ws);
  if ('error' in ws) return ws;
  const http = !o.http ? [] : listOf('http', o.http);
  if ('error' in http) return http;
  if (http.length > 1 && http.length !== ws.length)
    return {
      error:
        `--http takes one URL or as many as --ws, in the same order (got ${http.length}` +
        ` --http URLs for ${ws.length} --ws URL${ws.length === 1 ? '' : 's'})`,
    };
  if (ws.length === 1) return null;
  if (o.generate || o.replay)
    return { error: `several --ws URLs apply to the checks, not to --${o.generate ? 'generate' : 'replay'}` };
  const httpOf = (i: number): string | null => (http.length === 0 ? null : (http[i] ?? http[0]!));
  o.ws = ws[0]!;
  o.http = httpOf(0);
  o.otherEndpoints = ws.slice(1).map((url, i) => ({ ws: url, http: httpOf(i + 1) }));
  return null;
}

/** Parse argv; returns the options, `'help'`, or an error line (exit 2). */
export function parseCli(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): CliOptions | 'help' | { error: string } {
  const values = parse(argv);
  if ('error' in values) return values;
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
    generate: values.generate === true,
    replay: values.replay ?? null,
    spec: values.spec ?? null,
    ...(values['replay-dir'] !== undefined ? { replayDir: values['replay-dir'] } : {}),
  };
  for (const value of values.report ?? []) {
    const t = parseTarget(value);
    if ('error' in t) return t;
    o.reports.push(t);
  }
  const fields = {
    'check-timeout': 'checkTimeoutMs',
    'sample-window': 'sampleWindowMs',
    seed: 'seed',
    cases: 'cases',
    duration: 'durationS',
  } as const;
  for (const flag of Object.keys(fields) as (keyof typeof fields)[]) {
    const n = numberFlag(flag, values[flag]);
    if (typeof n === 'object') return n;
    if (n !== undefined) o[fields[flag]] = n;
  }
  if (!o.ws) return { error: '--ws <url> is required (see --help)' };
  const modes = modeProblem(o, values);
  if (modes) return { error: modes };
  const lists = splitEndpoints(o);
  if (lists) return lists;
  // With --spec the framing decides which checks run (cli.ts): the check ids are matched then.
  if (o.generate || o.replay || o.spec) return withDefaults(o);
  const noMatch = unmatched(o.only);
  if (noMatch) return { error: noMatch };
  if (selectChecks(registry, o.only, o.skip).length === 0) return { error: '--only and --skip leave no check to run' };
  return withDefaults(o);
}

/** The default report, and the URLs and keys checked. */
function withDefaults(o: CliOptions): CliOptions | { error: string } {
  if (o.reports.length === 0) o.reports.push({ kind: 'console' });
  try {
    resolveOptions({
      ws: o.ws,
      http: o.http,
      key: o.key,
      sessionKey: o.sessionKey,
      wallet: o.wallet,
      ...(o.otherEndpoints ? { otherEndpoints: o.otherEndpoints } : {}),
    });
  } catch (err) {
    return { error: (err as Error).message };
  }
  return o;
}
