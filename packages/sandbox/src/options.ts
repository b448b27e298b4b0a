/**
 * Sandbox options (also the JSON shape of `--config`), their validation, and the resolved settings.
 * Every default comes from the generated tables: limits from limitTable, the freshness window and
 * re-verification interval from loginTable.
 */
import { resolveMargin, type MarginModel, type MarginOptions } from './options-margin';
import { limitTable, loginTable, type BudgetKey } from '@exchange-api/types';
import type { VerifyingDeployment } from '@exchange-api/auth';
import { SandboxOptionsError } from './options-error';
import { redacted } from './redis/redact';
import { parseSeeds } from './redis/seeds';
import { resolveActionDeployments, type ActionDeploymentConfig } from './action-deployments';
import { presetOf, type Preset } from './presets';
import { ADDRESS, arr, bool, DECIMAL, isObject, kindOf, num, onlyKeys, str } from './options-fields';
import { resolveRfq, type RfqConfig, type RfqSettings } from './options-rfq';

export { SandboxOptionsError } from './options-error';

export type { LimitOverride, SessionKeyConfig, WalletConfig, InstrumentConfig } from './options-records';
import type { LimitOverride, SessionKeyConfig, WalletConfig, InstrumentConfig } from './options-records';

/** Options of `startSandbox`; the JSON shape of `--config`. All optional. */
export interface SandboxOptions {
  host?: string;
  /** Default 0 (a free port); 8080 with the `derive-local` preset. */
  port?: number;
  /**
   * A second port for the WebSocket alone (besides /v3/ws on `port`), at /v3/ws and the preset's path.
   * Absent: none, or 3000 with the `derive-local` preset (0 picks a free one).
   */
  wsPort?: number;
  /**
   * `derive-local`: listen where derive-ts's `local` network points (presets.ts): HTTP on 8080 with
   * `/public/<name>` and `/private/<name>` at the root, the WebSocket on 3000 at /ws, actions signed for
   * chain 31337. The ports can still be given.
   */
  preset?: 'derive-local';
  seed?: number;
  control?: boolean;
  /**
   * Refuse login by wallets the configuration does not name (in `wallets` or as a session key's
   * `wallet`). Off by default: any wallet that logs in gets an account.
   */
  knownWalletsOnly?: boolean;
  /**
   * The web pages (their Origin) that may open the WebSocket: exact origins, or `*` for any. Absent:
   * loopback pages and local files only (origin-policy.ts). Programs, which send no Origin, always may.
   */
  allowedOrigins?: string[];
  limits?: { [limitId: string]: LimitOverride };
  login?: { pastMs?: number; futureMs?: number; reverifyIntervalMs?: number };
  sessionKeys?: SessionKeyConfig[];
  wallets?: WalletConfig[];
  instruments?: InstrumentConfig[];
  market?: { intervalMs?: number };
  /** The margin model's parameters (options-margin.ts). */
  margin?: MarginOptions;
  /** RFQs and the simulated maker (options-rfq.ts). */
  rfq?: RfqConfig;
  /**
   * The deployments (domain separator and module addresses) whose action signatures are accepted.
   * Default: the two testnet ones of the public clients (derive-ts and derive-py's, ccxt's in sandbox mode).
   */
  actionDeployments?: ActionDeploymentConfig[];
  /**
   * A Redis URL (`redis://HOST:PORT`, `rediss://…`, or a unix socket path): every sandbox started with
   * the same URL acts as one exchange (see the README's "One exchange, many processes"). Absent: this
   * process alone, and no Redis client is loaded.
   */
  redis?: string;
  /**
   * A Redis Cluster's seeds, `HOST:PORT[,HOST:PORT…]` (each may be `redis://[:PASSWORD@]HOST:PORT`, or
   * `rediss://…` for TLS): as `redis`, on a cluster. Not with `redis`.
   */
  redisCluster?: string;
}

/** A window limit (rate-limiter-flexible fixed window). */
export interface WindowLimit {
  id: string;
  scope: BudgetKey;
  points: number;
  windowMs: number;
}
/** A continuously refilling bucket for some instrument types. */
export interface BucketLimit {
  id: string;
  refillPerSecond: number;
  capacity: number;
  instrumentTypes: readonly string[];
}

/** The options with every default filled in. */
export interface ResolvedOptions {
  host: string;
  port: number;
  /** The WebSocket's own port, or null when the WebSocket is on `port` only. */
  wsPort: number | null;
  /** The preset, or null. */
  preset: Preset | null;
  seed: number;
  control: boolean;
  knownWalletsOnly: boolean;
  /** Undefined: the default policy (origin-policy.ts). */
  allowedOrigins: string[] | undefined;
  windows: Map<string, WindowLimit>;
  buckets: BucketLimit[];
  maxConnections: number;
  maxFrameBytes: number;
  login: { pastMs: number; futureMs: number; reverifyIntervalMs: number };
  sessionKeys: SessionKeyConfig[];
  wallets: WalletConfig[];
  instruments: Required<InstrumentConfig>[];
  market: { intervalMs: number };
  margin: MarginModel;
  rfq: RfqSettings;
  actionDeployments: VerifyingDeployment[];
  /** The fleet's Redis URL, or null alone. */
  redis: string | null;
  /** The fleet's Redis Cluster seeds, or null. */
  redisCluster: string | null;
}

/** The default instruments: two perps, an option and a spot token. */
export const defaultInstruments: InstrumentConfig[] = [
  {
    instrument_name: 'ETH-PERP',
    instrument_type: 'perp',
    base_currency: 'ETH',
    quote_currency: 'USDC',
    tick_size: '0.01',
    amount_step: '0.001',
    price: 3000,
  },
  {
    instrument_name: 'BTC-PERP',
    instrument_type: 'perp',
    base_currency: 'BTC',
    quote_currency: 'USDC',
    tick_size: '0.1',
    amount_step: '0.0001',
    price: 60000,
  },
  {
    instrument_name: 'ETH-20261231-3000-C',
    instrument_type: 'option',
    base_currency: 'ETH',
    quote_currency: 'USDC',
    tick_size: '0.1',
    amount_step: '0.01',
    price: 250,
  },
  {
    instrument_name: 'ETH-USDC',
    instrument_type: 'erc20',
    base_currency: 'ETH',
    quote_currency: 'USDC',
    tick_size: '0.01',
    amount_step: '0.001',
    price: 3000,
  },
];

const TOP_KEYS = [
  'host',
  'port',
  'wsPort',
  'preset',
  'seed',
  'control',
  'knownWalletsOnly',
  'allowedOrigins',
  'limits',
  'login',
  'sessionKeys',
  'wallets',
  'instruments',
  'market',
  'margin',
  'rfq',
  'actionDeployments',
  'redis',
  'redisCluster',
] as const;
const KEYS_BY_KIND: Record<string, string[]> = {
  window: ['points', 'windowMs'],
  connections: ['max'],
  bucket: ['refillPerSecond', 'capacity'],
  size: ['maxBytes'],
};
/** A Redis URL or socket path; a bad one is named without its password (redis/redact.ts). */
function redisUrl(v: unknown): string {
  const pattern = /^(rediss?:\/\/|\/)/;
  if (typeof v === 'string' && !pattern.test(v))
    throw new SandboxOptionsError('redis', `must match ${pattern} (got ${JSON.stringify(redacted(v))})`);
  return str('redis', v, pattern);
}

/** A Redis Cluster's seeds (redis/seeds.ts reads them); a bad one is named without its password. */
function redisSeeds(v: unknown, redis: unknown): string {
  if (redis !== undefined)
    throw new SandboxOptionsError(
      'redisCluster',
      'cannot be given with redis: a fleet runs on one Redis or one cluster',
    );
  const seeds = str('redisCluster', v);
  try {
    parseSeeds(seeds);
  } catch (err) {
    throw new SandboxOptionsError('redisCluster', (err as Error).message);
  }
  return seeds;
}

/** The limits of limitTable with the overrides of `limits` applied. */
function resolveLimits(
  limits: unknown,
): Pick<ResolvedOptions, 'windows' | 'buckets' | 'maxConnections' | 'maxFrameBytes'> {
  if (!isObject(limits))
    throw new SandboxOptionsError('limits', `must be an object keyed by limit id (got ${kindOf(limits)})`);
  const known = limitTable.map((l) => l.id as string);
  for (const id of Object.keys(limits)) {
    if (!known.includes(id))
      throw new SandboxOptionsError(`limits.${id}`, `unknown limit id (known: ${known.join(', ')})`);
  }
  const out = {
    windows: new Map<string, WindowLimit>(),
    buckets: [] as BucketLimit[],
    maxConnections: 0,
    maxFrameBytes: 0,
  };
  for (const entry of limitTable) {
    const raw = limits[entry.id];
    const key = `limits.${entry.id}`;
    if (raw !== undefined && !isObject(raw))
      throw new SandboxOptionsError(key, `must be an object (got ${kindOf(raw)})`);
    const ov = (raw ?? {}) as Record<string, unknown>;
    onlyKeys(key, ov, KEYS_BY_KIND[entry.kind] ?? []);
    const pick = (name: string, dflt: number, opts: { int?: boolean; min?: number }) =>
      ov[name] === undefined ? dflt : num(`${key}.${name}`, ov[name], opts);
    if (entry.kind === 'window') {
      out.windows.set(entry.id, {
        id: entry.id,
        scope: entry.scope,
        points: pick('points', entry.points, { int: true, min: 1 }),
        windowMs: pick('windowMs', entry.windowMs, { int: true, min: 1 }),
      });
    } else if (entry.kind === 'connections') {
      out.maxConnections = pick('max', entry.max, { int: true, min: 1 });
    } else if (entry.kind === 'bucket') {
      out.buckets.push({
        id: entry.id,
        refillPerSecond: pick('refillPerSecond', entry.refillPerSecond, { min: 0 }),
        capacity: pick('capacity', entry.capacity, { min: 1 }),
        instrumentTypes: entry.instrumentTypes,
      });
    } else if (entry.kind === 'size') {
      out.maxFrameBytes = pick('maxBytes', entry.maxBytes, { int: true, min: 64 });
    }
  }
  return out;
}

function resolveLogin(login: unknown): ResolvedOptions['login'] {
  if (!isObject(login)) throw new SandboxOptionsError('login', `must be an object (got ${kindOf(login)})`);
  onlyKeys('login', login, ['pastMs', 'futureMs', 'reverifyIntervalMs']);
  const fresh = loginTable.freshness;
  return {
    pastMs: login.pastMs === undefined ? fresh.pastMs : num('login.pastMs', login.pastMs, { min: 0 }),
    futureMs: login.futureMs === undefined ? fresh.futureMs : num('login.futureMs', login.futureMs, { min: 0 }),
    reverifyIntervalMs:
      login.reverifyIntervalMs === undefined
        ? loginTable.reverifyIntervalMs
        : num('login.reverifyIntervalMs', login.reverifyIntervalMs, { min: 10 }),
  };
}

function resolveSessionKey(raw: unknown, i: number): SessionKeyConfig {
  const key = `sessionKeys[${i}]`;
  if (!isObject(raw)) throw new SandboxOptionsError(key, `must be an object (got ${kindOf(raw)})`);
  onlyKeys(key, raw, ['address', 'wallet', 'expiresAtMs', 'scopes', 'ipWhitelist', 'subaccounts']);
  const k: SessionKeyConfig = {
    address: str(`${key}.address`, raw.address, ADDRESS),
    wallet: str(`${key}.wallet`, raw.wallet, ADDRESS),
  };
  if (raw.expiresAtMs !== undefined) k.expiresAtMs = num(`${key}.expiresAtMs`, raw.expiresAtMs);
  if (raw.scopes !== undefined)
    k.scopes = arr(`${key}.scopes`, raw.scopes).map((s, j) => str(`${key}.scopes[${j}]`, s, /^(read|trade|\*)$/));
  if (raw.ipWhitelist !== undefined)
    k.ipWhitelist = arr(`${key}.ipWhitelist`, raw.ipWhitelist).map((s, j) => str(`${key}.ipWhitelist[${j}]`, s));
  if (raw.subaccounts !== undefined)
    k.subaccounts = arr(`${key}.subaccounts`, raw.subaccounts).map((s, j) =>
      num(`${key}.subaccounts[${j}]`, s, { int: true, min: 0 }),
    );
  return k;
}

function resolveWallet(raw: unknown, i: number): WalletConfig {
  const key = `wallets[${i}]`;
  if (!isObject(raw)) throw new SandboxOptionsError(key, `must be an object (got ${kindOf(raw)})`);
  onlyKeys(key, raw, ['address', 'subaccounts']);
  const subs = arr(`${key}.subaccounts`, raw.subaccounts).map((s, j) =>
    num(`${key}.subaccounts[${j}]`, s, { int: true, min: 0 }),
  );
  if (subs.length === 0) throw new SandboxOptionsError(`${key}.subaccounts`, 'must list at least one subaccount id');
  return { address: str(`${key}.address`, raw.address, ADDRESS), subaccounts: subs };
}

function resolveInstrument(raw: unknown, i: number, names: Set<string>): Required<InstrumentConfig> {
  const key = `instruments[${i}]`;
  if (!isObject(raw)) throw new SandboxOptionsError(key, `must be an object (got ${kindOf(raw)})`);
  onlyKeys(key, raw, [
    'instrument_name',
    'instrument_type',
    'base_currency',
    'quote_currency',
    'tick_size',
    'amount_step',
    'price',
  ]);
  // Names become one dot-separated segment of channel addresses, so no dots.
  const name = str(`${key}.instrument_name`, raw.instrument_name, /^[A-Za-z0-9_-]+$/);
  if (names.has(name)) throw new SandboxOptionsError(`${key}.instrument_name`, `duplicate instrument ${name}`);
  names.add(name);
  const type = str(`${key}.instrument_type`, raw.instrument_type, /^(perp|option|erc20)$/) as
    'perp' | 'option' | 'erc20';
  const tick = raw.tick_size === undefined ? '0.01' : str(`${key}.tick_size`, raw.tick_size, DECIMAL);
  const step = raw.amount_step === undefined ? '0.001' : str(`${key}.amount_step`, raw.amount_step, DECIMAL);
  if (Number(tick) <= 0) throw new SandboxOptionsError(`${key}.tick_size`, 'must be above zero');
  if (Number(step) <= 0) throw new SandboxOptionsError(`${key}.amount_step`, 'must be above zero');
  return {
    instrument_name: name,
    instrument_type: type,
    base_currency: str(`${key}.base_currency`, raw.base_currency, /^[A-Za-z0-9_-]+$/),
    quote_currency: raw.quote_currency === undefined ? 'USDC' : str(`${key}.quote_currency`, raw.quote_currency),
    tick_size: tick,
    amount_step: step,
    price: raw.price === undefined ? 100 : num(`${key}.price`, raw.price, { min: Number.MIN_VALUE }),
  };
}

function resolveInstruments(list: unknown): Required<InstrumentConfig>[] {
  const names = new Set<string>();
  const instruments = arr('instruments', list).map((raw, i) => resolveInstrument(raw, i, names));
  if (instruments.length === 0) throw new SandboxOptionsError('instruments', 'must list at least one instrument');
  return instruments;
}

function resolveMarket(market: unknown): ResolvedOptions['market'] {
  if (!isObject(market)) throw new SandboxOptionsError('market', `must be an object (got ${kindOf(market)})`);
  onlyKeys('market', market, ['intervalMs']);
  return {
    intervalMs:
      market.intervalMs === undefined ? 100 : num('market.intervalMs', market.intervalMs, { int: true, min: 5 }),
  };
}

/**
 * Check options (from code or a config file) and fill in every default. Throws SandboxOptionsError naming the bad key
 * (the first, in the order of this object).
 */
export function resolveOptions(input: unknown = {}): ResolvedOptions {
  if (!isObject(input)) throw new SandboxOptionsError('', `the top level must be a JSON object (got ${kindOf(input)})`);
  onlyKeys('', input, TOP_KEYS);
  const o = input as SandboxOptions;
  const preset = o.preset === undefined ? null : presetOf(o.preset);
  const port = o.port === undefined ? (preset?.port ?? 0) : num('port', o.port, { int: true, min: 0, max: 65535 });
  const wsPort =
    o.wsPort === undefined ? (preset?.wsPort ?? null) : num('wsPort', o.wsPort, { int: true, min: 0, max: 65535 });
  if (wsPort !== null && wsPort !== 0 && wsPort === port)
    throw new SandboxOptionsError('wsPort', `must differ from port (both ${port}); leave it out to serve both on one`);
  return {
    host: o.host === undefined ? '127.0.0.1' : str('host', o.host),
    port,
    wsPort,
    preset,
    seed: o.seed === undefined ? 1 : num('seed', o.seed, { int: true }),
    control: bool('control', o.control),
    knownWalletsOnly: bool('knownWalletsOnly', o.knownWalletsOnly),
    allowedOrigins:
      o.allowedOrigins === undefined
        ? undefined
        : arr('allowedOrigins', o.allowedOrigins).map((v, i) => str(`allowedOrigins[${i}]`, v)),
    ...resolveLimits(o.limits ?? {}),
    login: resolveLogin(o.login ?? {}),
    sessionKeys: arr('sessionKeys', o.sessionKeys ?? []).map(resolveSessionKey),
    wallets: arr('wallets', o.wallets ?? []).map(resolveWallet),
    instruments: resolveInstruments(o.instruments ?? defaultInstruments),
    market: resolveMarket(o.market ?? {}),
    margin: resolveMargin(o.margin),
    rfq: resolveRfq(o.rfq),
    actionDeployments:
      o.actionDeployments === undefined && preset
        ? preset.actionDeployments()
        : resolveActionDeployments(o.actionDeployments),
    redis: o.redis === undefined ? null : redisUrl(o.redis),
    redisCluster: o.redisCluster === undefined ? null : redisSeeds(o.redisCluster, o.redis),
  };
}
